"""Requests said in other words than an API's: each a pattern and what :func:`.sentences.meant` reads it as.

A request may say in its own words what a document says in others: who someone works for ("who does
Mia report to": her manager), who holds a role ("who has the Exchange administrator role": the
role's members), a meeting by its time ("push my 3pm"), a column of a board, a room booked. Each
rewording is general, never one API's names; :func:`.sentences.meant` applies them in order, so an
earlier one may feed a later one ("drop Priya a message" is sent, then a chat).
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["REWORDINGS"]

_OBJECT = {"i": "me", "we": "us"}  # who a rewording names as its object

# Requests said in other words than an API's, each (pattern, rewrite): who someone works for ("who does
# Mia report to": her manager), who works for them ("the people who report to Liam": his direct
# reports), and who holds a role ("who has the Exchange administrator role", "the admins with the Global
# Administrator role": the role's members, not roles).
REWORDINGS: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = (
    # a request corrected half-way is what follows the correction: "set up dictation... no, just give his tasks to
    # Priya", "delete the branch, actually, archive it"
    (
        re.compile(
            r"^.*(?:\.\.\.|[,;.!\u2026])\s*(?:(?:no|nope|wait)\s*[,.!\u2026]+|(?:actually|scratch\s+that|i\s+mean|sorry)[,.!\u2026]*)"
            r"\s*(?:just\s+|instead\s+)?(?=\w)",
            re.IGNORECASE,
        ),
        "",
    ),
    (
        re.compile(r"\b(?:does|do|did)\s+((?:\w+\s+){1,3}?)(?:report\s+to|work\s+for)\b", re.IGNORECASE),
        r"is the manager of \1",
    ),
    (
        re.compile(
            r"\b(who|people|everyone|anyone|those|staff|employees)\s+(?:that\s+|who\s+)?(?:reports?|reporting)\s+to\b",
            re.IGNORECASE,
        ),
        r"\1 are the direct reports of",
    ),
    # "the people I manage", "everyone Liam manages": their direct reports
    (
        re.compile(
            r"\b(?:the\s+)?(?:people|those|everyone|staff|employees)\s+(?:that\s+|who\s+|whom\s+)?([Ii]|[Ww]e|[A-Z][a-z]+)\s+manages?\b"
        ),
        lambda m: f"the direct reports of {'me' if m[1].lower() in ('i', 'we') else m[1]}",
    ),
    (
        re.compile(
            r"\b(?:(who)\s+(?:has|have|holds?)|(?:users|people|admins|everyone|members|accounts)\s+(?:with|holding))"
            r"\s+the\s+((?:[\w-]+\s+){0,3})role\b",
            re.IGNORECASE,
        ),
        lambda m: f"{m[1] + ' are ' if m[1] else ''}the members of the {m[2]}role",
    ),
    # a time of day someone has is a meeting: "push my 3pm to tomorrow", "cancel our 10:30"
    (
        re.compile(
            r"\b(my|our|your|his|her|their|the)\s+(\d{1,2}(?::\d\d)?\s?(?:am|pm)|\d{1,2}:\d\d|noon)"
            r"(?=\s+(?:to|with|on|today|tomorrow|and|is|was|about)\b|\s*[.,!?]?\s*$)",
            re.IGNORECASE,
        ),
        r"\1 \2 meeting",
    ),
    # a thing moved to a time or a day is rescheduled: "move Thursday's standup to 10am"
    (
        re.compile(
            r"\bmove\s+((?:[\w'-]+\s+){1,4}?)to\s+(?=(?:\d{1,2}(?::\d\d)?\s?(?:am|pm)|\d{1,2}:\d\d|noon|midnight|tomorrow"
            r"|(?:next\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b)",
            re.IGNORECASE,
        ),
        r"reschedule \1to ",
    ),
    # a thing turned into another kind makes one of that kind from it: "convert the Marketing group into a team"
    (
        re.compile(
            r"\b(?:convert|turn|make)\s+((?:the|my|our|this|that)\s+(?:[\w'-]+\s+){1,4}?)into\s+(?:an?\s+)?([\w-]+)",
            re.IGNORECASE,
        ),
        r"create a \2 from \1",
    ),
    # time said by its amount is logged as time: "log 2 hours on ticket T-12", "log 30 minutes to the bug"
    (
        re.compile(
            r"\b(log|record|track|bill)\s+(?:\d+(?:\.\d+)?|an?|half an)\s+(?:hours?|hrs?|minutes?|mins?)\b",
            re.IGNORECASE,
        ),
        r"\1 hours",
    ),
    # a message dropped or shot to someone is sent: "drop Priya a quick message in Teams"
    (
        re.compile(
            r"\b(?:drop|shoot)\s+(\w+)\s+an?\s+(?:quick\s+|short\s+)?(message|note|line|text|email|mail|dm)\b",
            re.IGNORECASE,
        ),
        r"send \1 a \2",
    ),
    # a message sent to someone by name, not to a channel or by email, is a chat: "send Ana a message in Teams"
    (
        re.compile(
            r"^(?![^.?!]*\b(?:channel|email|e-mail|mail|inbox|sms|text)\b)"
            r"(.*?\bsend\s+(?:[A-Z]\w+|her|him|them)\s+an?\s+(?:quick\s+|short\s+|welcome\s+|thank-you\s+)?)(message)\b"
        ),
        r"\1chat \2",
    ),
    # a board's columns: "move the redesign task to the Done column", "what columns does our Planner board have"
    (re.compile(r"\b(to|into)\s+the\s+([\w-]+)\s+column\b", re.IGNORECASE), r"\1 the \2 board column"),
    (re.compile(r"\bcolumns\b(?=[^.?!]*\b(?:planner|board|kanban)\b)", re.IGNORECASE), "board columns"),
    # a thing made read-only is changed, not made: "make old-project read-only"
    (re.compile(r"\bmake\s+(\S+)\s+read[- ]only\b", re.IGNORECASE), r"set \1 read-only"),
    # sign-in blocked for someone is their account blocked from it: "disable sign-in for Erin"
    (
        re.compile(
            r"\b(?:block|disable|prevent|stop)\s+(?:all\s+|any\s+|further\s+)?(?:sign[- ]?ins?|log[- ]?ins?|logins?)\s+"
            r"(?:for|by|from|of)\s+",
            re.IGNORECASE,
        ),
        "block sign-in of the account of ",
    ),
    # an account blocked is blocked from signing in: "block his account", "block Ana's account now"
    (
        re.compile(r"\bblock\s+((?:his|her|their|the|this|that|my|[A-Z][\w.-]*['\u2019]s)\s+)(accounts?)\b"),
        r"block sign-in of \1\2",
    ),
    # someone's account is their user record: "disable jdoe's account" (not "the company's account")
    (
        re.compile(r"(?<!\bthe\s)(?<!\bour\s)(?<!\bmy\s)(?<!\bits\s)\b([A-Za-z][\w.-]+)['\u2019]s\s+(accounts?)\b"),
        r"the user \2 of \1",
    ),
    # a state to check is one to see: "check the status of the Exchange service"
    (re.compile(r"\bcheck\s+(the\s+(?:current\s+)?(?:status|state|health|progress)\s+of)\b", re.IGNORECASE), r"get \1"),
    # a series of meetings is their recurring meeting: "delete the recurring standup series" (not a chart's series)
    (
        re.compile(
            r"\b((?:recurring|weekly|daily|monthly|meeting|standup|event)\s+(?:[\w-]+\s+)?)series\b", re.IGNORECASE
        ),
        r"\1meeting",
    ),
    # a file to find is one to search for ("find the Excel file with the 2026 budget"): not a spreadsheet's FIND
    (
        re.compile(
            r"\bfind\s+((?:the|a|an|my|our|that|this|those|all|any)\s+(?:[\w-]+\s+){0,3}?)"
            r"(files?|documents?|docs?|spreadsheets?|presentations?|decks?)\b",
            re.IGNORECASE,
        ),
        r"search for \1\2",
    ),
    # what someone is an owner of is owned by them: "groups where I am owner", "teams Ana is an owner of"
    (
        re.compile(
            r"\b(?:(?:where|in\s+which|of\s+which|that|which)\s+|(?<=[a-z]\s))([Ii]|[Ww]e|[A-Z][a-z]+)\s*(?:am|are|is|'m|'re)\s+"
            r"(?:an?\s+|the\s+)?owners?(?:\s+of)?\b"
        ),
        lambda m: f"owned by {_OBJECT.get(m[1].lower(), m[1])}",
    ),
    # what belongs to someone is theirs, owned (but someone belongs to a group): "which phones belong to Tom?"
    (re.compile(r"\bbelong(?:s|ing)?\s+to\s+(me|him|her|them|[A-Z][a-z]+)\b(?!\s+(?:team|group)\b)"), r"owned by \1"),
    # someone stopped from doing something is blocked: "stop her from logging in"
    (re.compile(r"\bstop\s+(her|him|them|[A-Z]\w+)\s+from\b"), r"block \1 from"),
    # a reminder before an event is the event's: "remind me half an hour before the client call"
    (
        re.compile(r"\bremind\s+me\s+((?:[\w-]+\s+){0,4}?)before\s+(the|my|our|tomorrow's|today's)\b", re.IGNORECASE),
        r"set a reminder \1before \2",
    ),
    # a call or a meeting booked with someone is a meeting scheduled: "book a 30 minute call with Aisha"
    (
        re.compile(
            r"\bbook\s+(?:an?\s+|some\s+)?((?:[\w-]+\s+){0,3}?)"
            r"(?:calls?|meetings?|syncs?|catch-?ups?|1:1s?|one on ones?|chats?|check-?ins?)\s+with\b",
            re.IGNORECASE,
        ),
        r"schedule a \1meeting with",
    ),
    # a room booked is reserved for a meeting, not a booking business's: "book the large conference room"
    (
        re.compile(
            r"\b(?:book|booked|grab|grabbed)\s+((?:the|a|an)\s+(?:[\w-]+\s+){0,3}?(?:room|desk|space|boardroom))\b",
            re.IGNORECASE,
        ),
        r"reserve \1",
    ),
    # what the asker has scheduled is on their calendar: "what do I have scheduled through Friday?"
    (
        re.compile(r"\bwhat\s+do\s+(?:I|we)\s+have\s+(?:scheduled|planned|booked|on)\b", re.IGNORECASE),
        "what is on my calendar",
    ),
    # a thing called something else instead is renamed: "call my Misc mail folder Receipts instead"
    (
        re.compile(r"\bcall\s+((?:my|the|our)\s+(?:[\w-]+\s+){0,3}?)([A-Z][\w-]*)\s+instead\b"),
        r"rename \1to \2",
    ),
    # the people of a channel, a group or a team are its members: "list the people in the Sales channel"
    (
        re.compile(
            r"\b(?:(who)\s+(?:is|are)|(who)'s|people)\s+(?:in|on)\s+((?:the\s+|our\s+)?(?:[\w-]+\s+){0,3}?"
            r"(?:channel|group|team|chat|meeting|call|distribution\s+list|mailing\s+list))\b",
            re.IGNORECASE,
        ),
        lambda m: f"{'who are the ' if m[1] or m[2] else ''}members of {m[3]}",
    ),
    # a thing listed for sale is sold, not listed: "list my guitar for sale"
    (re.compile(r"\blist\s+((?:[\w'-]+\s+){1,4}?)(?:up\s+)?for\s+sale\b", re.IGNORECASE), r"sell \1"),
    # someone shown as a state is their presence set: "show me as busy on Teams"
    (re.compile(r"^\s*(?:show|mark|set)\s+me\s+as\b", re.IGNORECASE), "set my presence to"),
    # a message filed into a folder is moved there: "file the newsletters into my Reading folder"
    (
        re.compile(
            r"\bfile\s+((?:[\w'-]+\s+){1,4}?)(?:into|in|under|to)\s+((?:my|the|our)\s+(?:[\w'-]+\s+){0,2}?folder)\b",
            re.IGNORECASE,
        ),
        r"move \1to \2",
    ),
    # who owns a thing asks for its owners, not for what someone owns: "who owns the Legal team?"
    (re.compile(r"\bwho\s+owns\b", re.IGNORECASE), "who are the owners of"),
    # who manages a thing (not a person) owns it: "who manages the Marketing group?"
    (
        re.compile(r"\bwho\s+(?:manages|runs|is\s+in\s+charge\s+of)\s+(?=the\b|our\b)", re.IGNORECASE),
        "who are the owners of ",
    ),
    # "who are our global admins?": the members of the administrator role
    (
        re.compile(r"\bwho\s+are\s+(?:our|the)\s+((?:[\w-]+\s+){1,2})admins\b", re.IGNORECASE),
        r"who are the members of the \1administrator role",
    ),
    # "who has global administrator rights?": the same role's members
    (
        re.compile(
            r"\bwho\s+(?:has|have|holds?)\s+((?:[\w-]+\s+){0,2})(?:admin|administrator)\s+"
            r"(?:rights|privileges|access|permissions)\b(?!\s+(?:to|on|in|for)\b)",  # not "admin access to the repo"
            re.IGNORECASE,
        ),
        r"who are the members of the \1administrator role",
    ),
    # "which people does Priya manage?": her direct reports
    (
        re.compile(
            r"\b(?:which|what)\s+(?:people|employees|staff|users)\s+(?:does|do)\s+([Ii]|[Ww]e|[A-Z][a-z]+)\s+manage\b"
        ),
        lambda m: f"who are the direct reports of {'me' if m[1].lower() in ('i', 'we') else m[1]}",
    ),
    # someone made an admin of a kind is added to its role: "make Sam a helpdesk admin"
    (
        re.compile(r"\bmake\s+([A-Z][\w-]*)\s+(?:an?\s+)?((?:[\w-]+\s+){0,2}?)(?:admin|administrator)\b"),
        r"make \1 a \2admin, a member of the administrator role",
    ),
    # what the asker deleted by mistake, said alone, is to be brought back: "i accidentally deleted a whole folder
    # on onedrive help", "we deleted the Sales Leads group by mistake"
    (
        re.compile(
            r"^\s*(?:i|we)\s+(?:accidentally\s+|mistakenly\s+|just\s+)?(?:deleted|removed|trashed)\s+([^,;]+?)"
            r"(?:\s+by\s+(?:mistake|accident))?[\s,.!]*(?:help|oops|please\s+help)?[\s.!?]*$",
            re.IGNORECASE,
        ),
        r"restore \1",
    ),
    # mail archived is moved to the archive folder, as mail apps do: "archive the email from the bank"
    (
        re.compile(
            r"\barchive\s+((?:the|this|that|these|those|my|all|old)\s+(?:[\w'-]+\s+){0,3}?"
            r"(?:e-?mails?|messages?|mail|threads?|conversations?))\b",
            re.IGNORECASE,
        ),
        r"move \1 to the archive mail folder",
    ),
    # an account used is signed in to: "did anyone use the break-glass account recently"
    (
        re.compile(
            r"\b(?:use|used|using)\s+((?:the|an?|this|that|his|her|their|my|our)\s+(?:[\w'-]+\s+){0,2}?accounts?)\b",
            re.IGNORECASE,
        ),
        r"sign in to \1",
    ),
    # a spreadsheet's tabs are its worksheets: "list the tabs in the budget spreadsheet"
    (re.compile(r"\btabs\b(?=[^.?!]*\b(?:spreadsheet|workbook|excel|sheet)s?\b)", re.IGNORECASE), "worksheets"),
    # a name changed is a thing renamed: "change the name of the Q4 folder to Q4 archive"
    (re.compile(r"\b(?:change|update|edit)\s+the\s+name\s+of\s+", re.IGNORECASE), "rename "),
    # a role activated for a while is an assignment requested on a schedule: "activate my Global Reader role"
    (
        re.compile(r"\bactivate\s+((?:my|his|her|their|the)\s+(?:[\w-]+\s+){0,3}?)role\b", re.IGNORECASE),
        r"request \1role assignment schedule activation",
    ),
)
