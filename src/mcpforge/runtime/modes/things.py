"""The everyday lexicon's things: the words people use for what an API names otherwise.

Abbreviations and near-synonyms of things (a PR is a pull request, a repo a repository, a laptop a
device), each with the terms a document uses for it and the weight of that evidence. The verbs,
phrases and questions people use are :mod:`.lexicon`'s, which adds these to them: the two are one
table, :data:`.lexicon.EVERYDAY`. General software vocabulary only, never one API's names.
"""

from __future__ import annotations

__all__ = ["THINGS", "USAGE"]

# A company's own document: "the quarterly report", "the Q3 report" (a quarter is said as "quarterly").
_DOCUMENT = (("file", "document", "item", "drive"), 0.6)
# What everyone did, counted: a usage report.
USAGE = (("report", "usage", "activity", "organization"), 0.6)

# What people call a thing, and the terms an API document uses for it: (terms, weight of the evidence).
THINGS: dict[str, tuple[tuple[str, ...], float]] = {
    "pr": (("pull", "request"), 1.0),
    "prs": (("pull", "request"), 1.0),
    "mr": (("merge", "request"), 1.0),
    "mrs": (("merge", "request"), 1.0),
    "repo": (("repository",), 1.0),
    "repos": (("repository",), 1.0),
    "org": (("organization",), 1.0),
    "orgs": (("organization",), 1.0),
    "msg": (("message",), 1.0),
    # a phone's message is a text (an SMS) where an API has them
    "message": (("sms",), 0.4),
    "messages": (("sms",), 0.4),
    # an admin is an administrator: someone holding a role
    "admin": (("administrator", "role"), 0.6),
    "admins": (("administrator", "role", "member"), 0.6),  # the people holding an admin role
    # what an administrator may do is their role ("who has admin rights in our tenant")
    **dict.fromkeys(
        ("admin rights", "admin privileges", "administrator rights", "administrator privileges"),
        (("administrator", "role", "permission", "member", "assignment"), 0.7),
    ),
    # and the other way: paths often abbreviate (GitHub's /orgs and /repos)
    "organization": (("org",), 0.5),
    "organizations": (("org",), 0.5),
    "repository": (("repo",), 0.5),
    "repositories": (("repo",), 0.5),
    "configuration": (("config",), 0.5),
    "database": (("db", "instance"), 0.5),
    "databases": (("db", "instance"), 0.5),
    "db": (("database",), 0.8),
    "dbs": (("database",), 0.8),
    "environment": (("env",), 0.5),
    "dm": (("direct", "message", "chat"), 0.8),
    "email": (("mail", "message"), 0.9),
    "emails": (("mail", "message"), 0.9),
    "mail": (("message",), 0.7),
    "inbox": (("mail", "message", "notification"), 0.5),
    "config": (("configuration", "setting"), 0.8),
    "settings": (("configuration",), 0.4),
    "perm": (("permission",), 1.0),
    "perms": (("permission",), 1.0),
    "auth": (("authentication", "authorization"), 0.6),
    "info": (("information", "detail"), 0.5),
    "docs": (("document", "documentation"), 0.6),
    "doc": _DOCUMENT,  # "the roadmap doc": a file someone keeps
    "pic": (("photo", "picture", "image"), 0.8),
    "picture": (("photo", "image", "avatar"), 0.6),
    "photo": (("picture", "image"), 0.5),
    "avatar": (("photo", "picture"), 0.6),
    "sub": (("subscription",), 0.6),
    "env": (("environment",), 1.0),
    "vars": (("variable",), 1.0),
    "var": (("variable",), 1.0),
    "ci": (("workflow", "action", "check", "run", "build"), 0.6),
    "build": (("workflow", "run", "job"), 0.4),
    "pipeline": (("workflow", "run"), 0.5),
    # What a CI's workflows run on and use: its actions ("a secret the workflows can use").
    **dict.fromkeys(("workflow", "workflows"), (("action",), 0.6)),
    "job": (("run", "task", "build"), 0.3),
    "chargeback": (("dispute",), 1.0),
    "chargebacks": (("dispute",), 1.0),
    "money": (("balance", "payment", "fund", "monetary"), 0.5),
    "paid": (("pay", "payment"), 0.6),
    "bill": (("invoice", "charge"), 0.7),
    "receipt": (("invoice", "charge", "payment"), 0.4),
    "discount": (("coupon", "promotion"), 0.8),
    "code": (("code",), 1.0),
    "card": (("card", "payment", "method", "source"), 0.5),
    "people": (("user", "member", "person"), 0.6),
    "boss": (("manager",), 0.9),
    # Someone from outside the organisation, let in by an invitation: "add a guest from our partner company".
    **dict.fromkeys(("guest", "guests"), (("invitation",), 0.6)),
    # sign-ins ("any logins from abroad"; matched by stem, so also "a login": low, as a database's logins)
    **dict.fromkeys(("logins", "log ins"), (("sign", "login"), 0.6)),
    "headcount": (("count", "member", "user"), 0.8),
    **dict.fromkeys(("cell number", "cell phone", "cellphone"), (("mobile", "phone"), 0.8)),
    # the number an employer gives someone ("Nina's staff number", "her badge number")
    **dict.fromkeys(("staff number", "employee number", "badge number", "staff id"), (("employee", "id"), 0.8)),
    "address book": (("contact",), 0.9),
    "planner board": (("planner", "plan"), 0.9),  # Planner shows a plan as a board
    # where a sign-in sends its answer: an app's redirect URIs ("register another reply URL for our app")
    **dict.fromkeys(("reply url", "reply urls", "callback url", "redirect url"), (("redirect", "uri", "url"), 0.8)),
    **dict.fromkeys(("seat", "seats"), (("license", "sku", "subscription"), 0.6)),  # what a company buys seats of
    # rules on a mailbox sort its mail ("mailbox rules for the CFO", "an inbox rule")
    **dict.fromkeys(
        ("mailbox rule", "mailbox rules", "inbox rule", "inbox rules", "mail rule", "mail rules"),
        (("message", "rule", "mail", "inbox"), 0.8),
    ),
    "graph": (("chart",), 0.5),  # "make a graph of the sales table"
    "org chart": (("manager", "direct", "report"), 0.7),
    "subfolder": (("child", "children", "folder"), 0.8),
    "sub folder": (("child", "children", "folder"), 0.8),
    "everyone": (("user", "member", "people"), 0.6),
    "everybody": (("user", "member", "people"), 0.6),
    # a list of people one mail reaches: a group ("the Sales distribution list", "a mailing list for the reps")
    **dict.fromkeys(
        ("distribution list", "distribution lists", "mailing list", "mailing lists"), (("group", "mail", "member"), 0.8)
    ),
    # the people an organisation employs are its users (low: an HR API's employees are its own records)
    # (not "staff": a booking service's staff members are its own records)
    **dict.fromkeys(("employee", "employees"), (("user", "people"), 0.4)),
    # What a build leaves behind, in CI's word for it.
    "build output": (("artifact",), 0.8),
    "build outputs": (("artifact",), 0.8),
    "binaries": (("artifact", "asset", "release"), 0.5),
    # A group by its kind is a group: "a security group" is not about security.
    "security group": (("group",), 1.0),
    "security groups": (("group",), 1.0),
    "person": (("user", "people"), 0.5),
    "account": (("user", "account"), 0.4),
    "accounts": (("user", "account"), 0.4),
    "team": (("team", "group"), 0.4),
    "meeting": (("event", "meeting", "calendar"), 0.8),
    "meetings": (("event", "meeting", "calendar"), 0.8),
    "appointment": (("event", "calendar"), 0.8),
    "calendar": (("event",), 0.4),
    "schedule": (("calendar", "event", "schedule"), 0.5),
    "file": (("item", "file", "content", "document", "drive"), 0.4),
    "files": (("item", "file", "content", "document", "drive"), 0.4),
    "folder": (("folder", "directory", "item", "children", "tree", "drive"), 0.5),
    "readme": (("file", "content", "blob"), 0.6),
    # a company's document is a file someone keeps ("who can edit the roadmap document")
    "document": (("file", "item", "drive"), 0.5),
    "documents": (("file", "item", "drive"), 0.5),
    # a company's report is a document ("share the Q3 report"), not an API's usage report
    "quarterly report": _DOCUMENT,
    "annual report": _DOCUMENT,
    # a document kept out of others' hands while one person edits it, and handed back; a managed
    # device checks in when it syncs with its management service
    "check out": (("checkout", "lock"), 0.8),
    "for editing": (("checkout", "lock"), 0.6),  # "lock the document for editing": checked out
    **dict.fromkeys(("check in", "checked in", "checks in", "checking in"), (("checkin", "unlock", "sync"), 0.8)),
    "check back": (("checkin", "unlock"), 0.8),
    **dict.fromkeys(("client secret", "client secrets"), (("password", "credential", "secret", "application"), 0.7)),
    "spreadsheet": (("workbook", "excel", "sheet", "file", "drive", "item"), 0.7),
    "workbook": (("spreadsheet", "excel", "file", "drive", "item"), 0.5),  # a file, not only its cells
    "sheet": (("spreadsheet", "worksheet", "workbook", "file"), 0.5),  # "the pricing sheet": a file, or one page
    "excel": (("workbook",), 0.6),
    "password": (("password", "credential", "authentication", "secret"), 0.5),
    "log": (("log", "audit", "trace"), 0.5),
    "logs": (("log", "audit", "trace"), 0.5),
    "secret": (("secret", "credential"), 0.5),
    "key": (("key", "credential"), 0.4),
    "hook": (("webhook", "hook"), 0.8),
    "webhook": (("hook", "callback", "notification", "subscription"), 0.6),  # Graph: a change-notification subscription
    "ping": (("hook", "webhook", "notification"), 0.4),
    "notify": (("notification", "webhook", "hook"), 0.6),
    "notifications": (("notification",), 1.0),
    "label": (("label", "tag"), 0.5),
    "tag": (("label", "tag"), 0.5),
    "version": (("release", "tag", "version"), 0.5),
    # how often a published file was fetched: its release assets' counts, not a download to make
    **dict.fromkeys(("download count", "download counts"), (("asset", "release", "count"), 0.7)),
    "version history": (("version",), 0.9),  # a file's versions, not an audit log
    # a document as it was before: one of its versions ("get me the older copy of the policy document")
    **dict.fromkeys(
        ("older copy", "old copy", "previous copy", "earlier copy", "older copies"), (("version", "history"), 0.8)
    ),
    # The version of what is running: the service's own description ("what version of Orthanc is running?").
    "what version": (("version", "system", "about", "info", "build", "health"), 0.6),
    "bank account": (("bank", "account", "payout", "settlement", "deposit", "transfer"), 0.5),
    # a bank's kinds of account are accounts, not checks or savings goals ("open a new checking account")
    **dict.fromkeys(
        ("checking account", "checking accounts", "savings account", "savings accounts", "current account"),
        (("account", "bank"), 0.8),
    ),
    "menu": (("catalog", "item", "product"), 0.7),
    # In a business system a product is an item of its inventory or catalog, and stock its quantity.
    "product": (("item", "inventory", "catalog", "product"), 0.5),
    "stock": (("inventory", "quantity", "available"), 0.5),
    "thread": (("conversation", "thread", "discussion"), 0.5),
    "conversation": (("thread", "discussion", "chat"), 0.5),
    "chat": (("conversation", "message"), 0.4),
    "checks": (("check", "status"), 0.6),
    "passing": (("status", "check"), 0.6),
    "failing": (("status", "check", "failed"), 0.5),
    "vulnerable": (("vulnerability", "alert", "security"), 0.8),
    "vulnerability": (("alert", "security", "advisory"), 0.5),
    "dependencies": (("dependency", "dependabot"), 0.6),
    "diff": (("compare", "commit", "patch"), 0.6),
    "changes": (("commit", "diff", "compare"), 0.4),
    "branch": (("branch", "ref"), 0.5),
    "contributor": (("contributor", "collaborator"), 0.6),
    "access": (("permission", "collaborator", "member"), 0.5),
    "quota": (("quota", "usage", "limit", "drive"), 0.5),
    "space": (("quota", "storage", "drive"), 0.4),
    "storage": (("drive", "quota"), 0.4),
    # how full a store is: "how close am I to filling up my OneDrive"
    **dict.fromkeys(("filling up", "fill up", "fills up"), (("quota", "storage", "space"), 0.6)),
    "license": (("license", "sku", "seat", "subscription"), 0.5),  # what a company buys seats of
    "tenant": (("organization",), 0.8),
    "directory id": (("organization", "tenant"), 0.8),  # Microsoft Entra's "Directory (tenant) ID"
    # an alert or a risk that was none is dismissed
    **dict.fromkeys(("false positive", "false alarm"), (("dismiss",), 0.8)),
    "company": (("organization", "user"), 0.4),
    # an administrator's shorthand for an app's registration ("app regs expiring secrets")
    **dict.fromkeys(("app reg", "app regs"), (("application", "registration"), 0.9)),
    # the company's number is the organisation's, not a company phone's ("update the company's phone number")
    **dict.fromkeys(("company phone number", "company phone numbers"), (("organization", "phone"), 0.8)),
    # what everyone does, counted: "how many emails did people send across the company" asks for a report
    "across the company": USAGE,
    "across the organization": USAGE,
    "across the org": USAGE,
    "company wide": USAGE,
    # a computer is a device an organisation manages
    "laptop": (("device", "computer"), 0.8),
    # a network's boxes are its devices ("what's plugged into the core switch"); a NIC is a network interface
    **dict.fromkeys(("switch", "switches", "router", "routers", "firewall", "firewalls"), (("device",), 0.5)),
    **dict.fromkeys(("nic", "nics"), (("interface", "network"), 0.8)),
    # the company's own phones and laptops are the devices it manages ("which company phones haven't synced")
    **{
        f"{whose} {kind}": (("managed", "device", *also), 0.7)
        for whose in ("company", "corporate", "work")
        for kind, also in (
            ("laptop", ("computer",)),
            ("laptops", ("computer",)),
            ("phone", ("mobile",)),
            ("phones", ("mobile",)),
            ("device", ()),
            ("devices", ()),
        )
    },
    "wireless": (("wifi", "wlan"), 0.8),  # "the wireless network settings": Wi-Fi
    # a Wi-Fi network is a wireless LAN, named by its SSID ("add a guest wifi network")
    **dict.fromkeys(("wifi", "wi fi"), (("wlan", "ssid", "wireless"), 0.6)),
    **dict.fromkeys(("pre shared key", "pre shared keys"), (("psk", "passphrase"), 0.9)),  # a Wi-Fi PSK
    # what a monitoring system raises: an alert is an alarm, and acknowledging one is its "ack"
    **dict.fromkeys(("alert", "alerts"), (("alarm",), 0.6)),
    **dict.fromkeys(("alarm", "alarms"), (("alert",), 0.6)),
    # a building's floor plan is its map
    **dict.fromkeys(("floor plan", "floor plans", "floorplan"), (("map", "floorplan", "floor"), 0.7)),
    # how much something was used: its usage, what was done with it ("how many people used Teams")
    "used": (("usage", "activity"), 0.5),
    "computer": (("device",), 0.6),
    # who drives the deliveries: a field service's workers or couriers
    "driver": (("worker", "courier"), 0.5),
    "drivers": (("worker", "courier"), 0.5),
    # a connected device is a "thing" where an API says so (AWS IoT's things)
    "device": (("thing",), 0.4),
    "devices": (("thing",), 0.4),
    "pc": (("device", "computer"), 0.8),
    "phone": (("device", "model", "mobile"), 0.5),  # "which phones are our users on": device models
    # the devices people name by their kind or make: "wipe the stolen tablet", "the CEO's iPad"
    **dict.fromkeys(("tablet", "tablets", "smartphone", "smartphones"), (("device", "mobile"), 0.7)),
    **dict.fromkeys(("ipad", "ipads", "iphone", "iphones"), (("device", "ios", "mobile"), 0.7)),
    **dict.fromkeys(("macbook", "macbooks"), (("device", "computer", "macos"), 0.7)),
    # what a device-management service pushes to devices: a configuration ("the Wi-Fi profile we push to laptops")
    **dict.fromkeys(
        (
            f"{kind} {noun}"
            for kind in ("wi fi", "wifi", "vpn", "email", "device", "configuration", "config")
            for noun in ("profile", "profiles")
        ),
        (("configuration", "device", "profile"), 0.8),
    ),
    "classroom": (("class",), 0.8),
    # a calendar people share is a calendar and its events, not a share ("the group's shared calendar this week")
    **dict.fromkeys(("shared calendar", "shared calendars"), (("calendar", "event"), 0.8)),
    # a conference room is a meeting room: booked for a meeting, or a place ("the Building 2 conference room")
    **dict.fromkeys(
        (
            "conference room",
            "conference rooms",
            "meeting room",
            "meeting rooms",
            "meeting space",
            "meeting spaces",
            "boardroom",
            "boardrooms",
        ),
        (("room", "meeting", "event", "calendar", "place"), 0.8),
    ),
    # what someone agrees to before using a service
    **dict.fromkeys(("terms of use", "terms of service", "terms and conditions"), (("agreement", "term"), 0.8)),
    # when someone works is their shifts: "when is Leo scheduled to work", "the rota for next week"
    **dict.fromkeys(("scheduled to work", "rota"), (("shift", "schedule"), 0.8)),
    # a roster is a rota, or the people on a class's or a team's list ("add a student to the class roster")
    **dict.fromkeys(("roster", "rosters"), (("shift", "schedule", "member"), 0.6)),
    # a presentation is a file someone keeps ("the PowerPoint Jen worked on", "the sales deck")
    **dict.fromkeys(("powerpoint", "presentation", "presentations", "deck", "slides"), _DOCUMENT),
    **dict.fromkeys(("handbook", "handbooks", "brochure", "brochures"), _DOCUMENT),
    "spam": (("block", "delete", "junk"), 0.4),
    **dict.fromkeys(("todo", "todos"), (("task", "todo"), 0.8)),  # "mark the 'renew passport' to-do as done"
    "to do list": (("task", "todo", "list"), 0.8),  # "to-do list": words() splits at the hyphen
    **dict.fromkeys(("to do item", "to do items"), (("task", "todo"), 0.8)),
    "reminder": (("task", "todo"), 0.5),
    "oclock": (("event",), 0.5),  # "my 10 o'clock": the meeting then
    "remind": (("task", "todo", "reminder"), 0.6),
    # someone's second factor is one of their sign-in's methods ("reset the MFA for Luca")
    "mfa": (("authentication", "authenticator", "method", "factor"), 0.6),
    # a second factor required of people is a sign-in policy's ("require MFA for all admins")
    **dict.fromkeys(
        ("require mfa", "enforce mfa", "require 2fa", "enforce 2fa", "require two factor", "enforce two factor"),
        (("policy", "conditional", "access", "mfa", "authentication", "require"), 0.7),
    ),
    # what is due is a task's ("my upcoming Planner deadlines")
    **dict.fromkeys(("deadline", "deadlines"), (("due", "task", "date"), 0.6)),
    # the time a CI service bills for: its usage ("CI minutes are running out, how much have we used?")
    **dict.fromkeys(
        ("ci minutes", "build minutes", "actions minutes", "pipeline minutes"),
        (("billing", "usage", "minutes", "actions"), 0.8),
    ),
    # what is wrong with a service, for those it reaches: "an active incident affecting Exchange"
    **dict.fromkeys(("affecting", "impacting"), (("health", "issue", "service", "impact"), 0.5)),
    "ticket": (("issue", "case", "incident"), 0.6),
    "tickets": (("issue", "case", "incident"), 0.6),
    # a device set back to "how it came out of the box" is wiped
    "out of the box": (("wipe", "factory", "reset"), 0.7),
    "catch ups": (("meeting", "event"), 0.6),  # "catch-ups": words() splits at the hyphen
    "line": (("row",), 0.5),  # "append a line to the expenses table"
    "software": (("app", "application"), 0.6),
    # whether someone is free: "is Jonas available on Teams"
    "available": (("presence", "availability", "free", "busy"), 0.5),
    # when people are free, as calendars say it: "the free/busy of several people", "free-busy times"
    **dict.fromkeys(("free/busy", "free busy"), (("schedule", "availability", "free", "busy"), 0.8)),
    # a thing made available to others is shared with them: "make the Projects folder available to everyone"
    **dict.fromkeys(
        (
            "available to everyone",
            "available to all",
            "available to anyone",
            "available to the whole",
            "available to the company",
            "available to the team",
            "available to the organization",
        ),
        (("share", "permission", "link", "access", "invite"), 0.7),
    ),
    # whether someone can talk now: their presence ("is Jonas free to chat right now?")
    **dict.fromkeys(
        ("free to chat", "free to talk", "free right now", "free now", "free at the moment"),
        (("presence", "availability"), 0.8),
    ),
    # news for others is a post, not a change: "share an update in the general channel"
    "an update": (("post", "message", "status"), 0.6),
    # a short post on a social network: a status ("post a toot", "delete my last tweet")
    **dict.fromkeys(("toot", "toots", "tweet", "tweets"), (("status", "post"), 0.7)),
    # time away asked for: "approve Ana's leave request"
    **dict.fromkeys(("leave request", "leave requests"), (("time", "off", "request", "absence", "leave"), 0.8)),
    "over time": (("history", "trend"), 0.6),  # "how has Tom's risk changed over time"
    "active users": (("activity", "active", "user", "count"), 0.7),  # a usage report's count
    # what runs a CI system's jobs: "the self-hosted build machines of our repository"
    **dict.fromkeys(("build machine", "build machines", "build agent", "build agents"), (("runner", "agent"), 0.8)),
    "litigation": (("hold", "legal", "ediscovery", "case"), 0.7),  # a mailbox kept for it is on hold
    # a new version of what runs is an upgrade of it ("deploy a new version of the app")
    # (or of a document: "download the latest version of the pricing sheet")
    **dict.fromkeys(
        ("new version", "newer version", "latest version"), (("upgrade", "update", "release", "version"), 0.6)
    ),
    # a product or an ad turned down is in its status ("which products were disapproved?")
    **dict.fromkeys(("disapproved", "rejected"), (("status", "issue", "disapproval"), 0.5)),
    "legal hold": (("hold", "ediscovery", "custodian", "case", "litigation"), 0.8),
    # how to get into a meeting: its join link ("grab me the join link for the all-hands")
    **dict.fromkeys(("join link", "join url"), (("join", "link", "url", "online", "invitation"), 0.7)),
    # a kanban board's columns are its buckets, sections or stages ("move the card to the Done column")
    **dict.fromkeys(
        ("board column", "board columns", "lane", "lanes", "swimlane", "swimlanes"),
        (("bucket", "section", "stage", "status"), 0.7),
    ),
    # a person's title is their job title ("Lisa got promoted, update her title")
    **dict.fromkeys(("her title", "his title", "my title", "their title"), (("job", "title", "user"), 0.7)),
    # a tracked thing's past positions are its trace ("the location history of the truck")
    **dict.fromkeys(
        ("location history", "route history", "where it has been", "where has it been"),
        (("trace", "history", "track", "position"), 0.8),
    ),
    # what a device measures, and what it last reported: its telemetry, or its shadow (a twin of its state)
    **dict.fromkeys(("readings", "sensor data", "telemetry"), (("telemetry", "trace", "measurement", "metric"), 0.6)),
    "battery": (("shadow", "twin", "state", "telemetry"), 0.5),
    # a network's words: a virtual machine is a VM, a VLAN a layer-2 network
    **dict.fromkeys(("virtual machine", "virtual machines"), (("vm", "instance", "server", "virtual", "machine"), 0.8)),
    **dict.fromkeys(("vlan", "vlans"), (("layer2", "l2", "network", "segment"), 0.6)),
    # a status in a chat app is one's presence ("I don't want to be disturbed, change my Teams status")
    **dict.fromkeys(("teams status", "chat status"), (("presence", "availability", "status"), 0.8)),
}
