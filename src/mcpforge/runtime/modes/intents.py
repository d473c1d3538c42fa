"""The actions a request asks for: which HTTP methods its action words and phrases mean, and what is sent.

:data:`INTENT_PHRASES` are matched before :data:`INTENT_VERBS` ("get rid of" is a DELETE, not a
GET); :data:`SENT` are the verbs that, said first, name a thing to send ("email the report to Tom").
:mod:`.asks` reads them to weigh each operation's method; what the words name is :mod:`.lexicon`'s.
"""

from __future__ import annotations

__all__ = ["CREATE", "DELETE", "FIRST_VERBS", "INTENT_PHRASES", "INTENT_VERBS", "READ", "SENT", "UPDATE", "WRITE"]

# The HTTP methods a request's action words ask for, first match wins; a phrase before its words
# ("get rid of" is a DELETE, not a GET).
# An action that changes something, by whichever method the API chose: merging is a PUT on GitHub and a
# POST on Bitbucket, cancelling a DELETE or a POST to .../cancel; never a GET.
WRITE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
DELETE, CREATE, UPDATE, READ = (
    frozenset({"DELETE"}), frozenset({"POST", "PUT"}), frozenset({"PATCH", "PUT", "POST"}), frozenset({"GET"})
)  # fmt: skip
INTENT_PHRASES = {
    "get rid of": DELETE,
    "take out": DELETE,
    "take off": DELETE,
    "kick out": DELETE,
    "tick off": UPDATE,
    "check off": UPDATE,
    "clean up": DELETE,
    "turn off": WRITE,  # a setting changed, or what was set up removed ("turn off the channel's email address")
    "turn on": UPDATE,
    "top up": CREATE,  # money added: a purchase or a payment
    "turn down": WRITE,  # an invitation or an offer declined
    "pass on": CREATE,  # "pass the invitation on to Jim": forwarded
    "send on": CREATE,
    "switch off": WRITE,
    "switch on": UPDATE,
    "set up": CREATE,
    "kick off": CREATE,
    "stop sending": DELETE,
    "stop notifying": DELETE,
    "stop sharing": DELETE,
    "drop a note": CREATE,
    "file a": CREATE,
    "file an": CREATE,
    "sign up": CREATE,
    **dict.fromkeys(("sign out", "log out"), WRITE),  # "sign him out of everything": his sessions revoked
    "open a": CREATE,  # "open a ticket", "open an issue": one made; "open the site" reads one
    "open an": CREATE,
    **dict.fromkeys(("open the", "open my", "open our", "open this", "open that"), READ),
    "look up": READ,
    "copy out": READ,
    "hang up": WRITE,
    "call off": WRITE,
    "take back": DELETE,
    "tear down": DELETE,
    "throw away": DELETE,
    "throw out": DELETE,
    "clear out": DELETE,
    "spin down": WRITE,
    "spin up": CREATE,
    "shut down": WRITE,
    "pull up": READ,
    "look at": READ,
    "bring back": UPDATE,
    "push back": UPDATE,
    "bring forward": UPDATE,
    "block out": CREATE,
    "block off": CREATE,
    "get back": UPDATE,
    # a link is made to be shared: "get a link to share the roadmap with the company", "get a sharing link"
    **dict.fromkeys(("get a link", "get a sharing", "get a shareable"), CREATE),
    "write back": CREATE,
    "leave a": CREATE,
    **dict.fromkeys(("leave the", "leave our", "leave my"), DELETE),  # "leave the Marketing team": a membership ended
    "stop anyone from": UPDATE,  # a rule against it: made or changed
    "dont let": UPDATE,
    "do not let": UPDATE,
    "dont allow": UPDATE,
    "do not allow": UPDATE,
    # a limit set: "only let collaborators comment for a day", "make sure nobody can push to main"
    **dict.fromkeys(("only let", "only allow", "make sure nobody", "ensure nobody"), UPDATE),
    "say yes": WRITE,
    # news told to others is a message ("the all-hands moved to Thursday, let everyone know")
    **dict.fromkeys((f"let {who} know" for who in ("everyone", "everybody", "people", "them", "the team")), CREATE),
    "take ownership": UPDATE,  # "take ownership of the incident": assigned to the asker
    # a firewall's rule made or changed ("open port 443", "open HTTPS to the world"); "open issues" are which issues
    **dict.fromkeys(("open port", "open ports", "open https", "open http", "open ssh", "open rdp"), WRITE),
    "leave feedback": CREATE,
    "say no": WRITE,
    "stop people from": UPDATE,
    "stop everyone from": UPDATE,
    "make the": UPDATE,
    "make this": UPDATE,
    "make it": UPDATE,
    # a question put to the assistant ("tell me which meetings are online"), not a message ("tell me whenever")
    **dict.fromkeys(
        (
            f"tell {who} {what}"
            for who in ("me", "us")
            for what in ("who", "which", "what", "how", "why", "when", "where", "whether", "if")
        ),
        READ,
    ),
}
INTENT_VERBS: tuple[tuple[str, frozenset[str]], ...] = (
    (
        "delete remove trash drop erase wipe discard destroy purge unblock unstar unfollow unsubscribe unsend scrap",
        DELETE,
    ),
    (
        "create add make new post submit send register publish upload invite save store book text share reply record "
        "log call dial sell prepare compose draft tell inform notify announce provision nominate bookmark",
        CREATE,
    ),
    (
        "update change edit modify rename rewrite move fix set enable disable toggle turn switch archive mark flag "
        "close reopen give prevent put complete reschedule postpone reassign replace restrict reinstate "
        "demote extend allow permit exempt categorize resolve unresolve limit retarget require",
        UPDATE,
    ),
    (
        "list show get find search see view read fetch download which who what how why look any anything compare count "
        "grab preview",
        READ,
    ),
    (
        "cancel merge approve accept decline reject restore resend retry rerun revoke renew rotate reset restart "
        "reboot resize scale lock pin star follow block mute snooze assign transfer duplicate copy clone fork import "
        "sync refund pay charge void sign verify suspend resume pause stop start run trigger deploy rollback promote "
        "kick ban print schedule reserve subscribe attach detach link tag hide forward push write point clear protect "
        "hand spin upgrade downgrade freeze dismiss vote buy purchase react install enroll enrol decommission mirror "
        "generate split redeploy apply build ask ping roll confirm answer rsvp acknowledge ack connect disconnect "
        "retire grant end deny terminate recover revert undo abort kill migrate regenerate execute invoke join "
        "watch calculate recalculate translate fulfil fulfill withdraw deprovision offboard cut ship",
        WRITE,
    ),
)

# Things sent, said first as a verb: "email the report to Tom", "text Anna", "message the team".
SENT = frozenset({"email", "mail", "text", "message", "dm"})

# Words that are the action only when said first ("like the drone video"; "I'd like to see" asks nothing
# of likes), and the methods they ask for.
FIRST_VERBS = {"like": CREATE, "unlike": DELETE, "empty": DELETE, "request": CREATE}
