"""Requests typed as commands: a provider's CLI ("gh run rerun 98765 --failed", "az webapp restart") and
PowerShell's cmdlets ("Get-MgUserLicenseDetail for bob"), each said as the words of a request.

People who use an API every day often ask for an operation by the command they would type. A CLI says its
noun before its verb ("gh pr merge 12"), so the first word a request's reading takes for its action is
the noun ("pr"), and a flag's words ("--failed", "--add-reviewer") are run together with dashes.
A cmdlet's name runs its verb and noun together ("Remove-MgGroupMemberByRef"). :func:`as_said` says them
in a request's order, verb first, before :func:`.sentences.meant` reads the request.
"""

from __future__ import annotations

import re

__all__ = ["as_said"]

# The CLIs that say a command as nouns, then its verb ("gh pr merge", "az webapp restart", "gcloud compute
# instances list", "stripe customers create"; "heroku apps:create" with a colon). Not aws, whose commands
# are verb-first already ("aws ec2 describe-instances"), nor kubectl ("kubectl get pods").
_CLI = re.compile(
    r"^\s*(?:gh|glab|az|gcloud|doctl|heroku|stripe|vercel|netlify|fly|flyctl|hcloud|twilio|okta)\s+"
    r"(?P<command>(?:[a-z][a-z-]*(?::[a-z][a-z-]*)?(?=\s|$)\s*){1,3})(?P<rest>.*)$"
)
# A flag, its words apart: "--add-reviewer alice" is "add reviewer alice", "-R acme/web" a repository.
_FLAG = re.compile(r"(?<!\S)--?([A-Za-z][\w-]*)(?:=(\S+))?")
# A cmdlet: an approved PowerShell verb, a dash, a noun in capitals; a module's prefix on the noun (Microsoft
# Graph's Mg, Az, AzureAD, MSOnline's Msol, PnP, SharePoint's SPO, Exchange's Exo) is no word of the API's.
_CMDLET = re.compile(
    r"\b(?:(?:run|execute|call|use|try)\s+)?"
    r"(Get|New|Set|Update|Remove|Add|Invoke|Revoke|Restore|Test|Start|Stop|Clear|Reset|Enable|Disable|Confirm|Move"
    r"|Rename|Copy|Send|Search|Find|Grant|Block|Unblock|Register|Unregister|Install|Uninstall|Import|Export"
    r"|Publish|Approve|Deny|Resume|Suspend|Sync|Lock|Unlock|Join|Merge|Close|Open|Submit)"
    r"-(?:Mg(?:Beta)?|AzureAD|AzAD|Az|Msol|PnP|SPO|Exo)?([A-Z][A-Za-z]*)\b"
)
_CAPITALS = re.compile(r"(?<=[a-z])(?=[A-Z])")
# A cmdlet's parameter ("-UsageLocation US"): its name's words
_PARAMETER = re.compile(r"(?<!\S)-([A-Z][A-Za-z]+)\b")


def as_said(text: str) -> str:
    """``text`` with a command in it said verb first, in words (the text itself if it has none)."""
    cmdlet = _CMDLET.search(text)
    if cmdlet:
        noun = _CAPITALS.sub(" ", cmdlet[2]).lower()
        text = text[: cmdlet.start()] + f"{cmdlet[1].lower()} {noun}" + text[cmdlet.end() :]
        return _PARAMETER.sub(lambda found: _CAPITALS.sub(" ", found[1]).lower(), text)
    command = _CLI.match(text)
    if not command:
        return text
    said = command["command"].replace(":", " ").split()
    if len(said) > 1:  # "pr merge": the verb is the last word, the nouns before it
        said = [said[-1], *said[:-1]]
    rest = _FLAG.sub(_flag_words, command["rest"])
    return " ".join((*said, *rest.split()))


def _flag_words(found: re.Match[str]) -> str:
    # a one-letter flag ("-R acme/web") is an abbreviation, not a word: only its value is said
    name = found[1].replace("-", " ") if len(found[1]) > 1 else ""
    return " ".join(filter(None, (name, found[2] or "")))
