"""Search mode: what a request asks of a thing's property ("what's Jamal's office location") and its answer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from helpers import build, write_spec
from helpers import search_entry as entry
from mcpforge.runtime.modes.asks import query_terms
from mcpforge.runtime.modes.documents import analyse, entry_texts
from mcpforge.runtime.modes.index import SearchIndex, Weights
from mcpforge.runtime.modes.properties import Properties, property_phrases, who_did
from mcpforge.runtime.modes.sentences import intent
from mcpforge.targets.search import search_documents


def phrases(request: str) -> list[str]:
    return property_phrases(request, intent(request))


@pytest.mark.parametrize(
    ("request_", "expected"),
    [
        ("what's Jamal's office location?", ["office location"]),
        ("what\u2019s Jamal\u2019s office location?", ["office location"]),  # a typographic apostrophe
        ("change Lisa's job title to Senior Engineer", ["job title"]),  # up to the first common word
        ("what's the default branch of acme/widgets?", ["default branch"]),
        ("what's the usage location set on Omar's account?", ["account", "usage location"]),
        ("what time zone is my mailbox set to?", ["time zone"]),
        ("what department is Hugo Martins in?", ["department"]),  # "what Y is <a name>"
        ("show the older versions of the pricing sheet", ["versions"]),  # "older" is when, not what
        # What a change sets: what something is made, what is turned on or off.
        ("make develop the default branch", ["default branch"]),
        ("make the acme/widgets repo private", ["private"]),
        ("we use Jira now, so turn off the issue tracker on acme/widgets", ["issue tracker"]),
        ("enable brute force protection for the realm", ["brute force protection"]),
        # Which ones a list holds: "in the <value> <property>".
        ("list everyone in the marketing department", ["department"]),
        # A state a thing is marked as, and what it is given anew.
        ("mark the message from HR as read", ["read"]),
        ("mark issue 71 as a duplicate and close it", ["duplicate"]),
        ("give the Design channel a new description", ["description"]),
        # An amount a record keeps.
        ("how much CPU quota do we have left in us-east1?", ["CPU quota"]),
        # Which ones a list holds, by a property's value.
        ("look up employees whose surname is Smith", ["surname"]),
        ("who has the desk phone 4455?", ["desk phone"]),
    ],
)
def test_a_property_is_read_from_the_requests_shape(request_: str, expected: list[str]) -> None:
    assert phrases(request_) == expected


@pytest.mark.parametrize(
    "request_",
    [
        "list the open pull requests",  # most requests name no property
        "record tonight's football match",  # a time owns nothing
        "push Thursday's meeting back to 4pm",
        "remove the account of the intern who left",  # deleting is never of a property
        "save the plumber's phone number in my contacts",  # what a request creates is a thing of its own
        "who created the Partners SharePoint site?",  # who made a thing: see who_did
        "who reviewed PR 230?",
        "what issue types are there",
        "make a new branch called develop",  # making a thing, not setting one
        "make me a calendar for the book club",
    ],
)
def test_most_requests_ask_no_property(request_: str) -> None:
    assert phrases(request_) == []


ENTRIES = [
    entry("get_user", "GET", "/users/{user-id}", "Get a user"),
    entry("update_user", "PATCH", "/users/{user-id}", "Update a user"),
    entry("get_manager", "GET", "/users/{user-id}/manager", "Get a user's manager"),
    entry("list_phone_methods", "GET", "/users/{user-id}/authentication/phoneMethods", "List phone methods"),
    entry("list_rooms", "GET", "/places/microsoft.graph.room", "List rooms by location"),
    entry("list_events", "GET", "/me/events", "List events"),
    entry("update_print_job", "PATCH", "/print/printers/{printer-id}/jobs/{printJob-id}", "Update a print job"),
    entry("get_site", "GET", "/sites/{site-id}", "Get a site"),
    entry("get_site_analytics", "GET", "/sites/{site-id}/analytics", "Get a site's web analytics"),
    entry("create_site", "POST", "/sites", "Create a site"),
    # Records that hold none of the names asked: what makes a name rare.
    *(entry(f"list_things_{n}", "GET", f"/things{n}", f"List things {n}") for n in range(16)),
]
USER = ["display_name", "offic_locat", "job_titl", "mobil_phone", "manag", "busi_phone"]
PROPERTIES = {
    "get_user": USER,
    "update_user": USER,
    "get_manager": USER,
    "list_events": ["subject", "organiz", "start", "remind_minut_befor_start"],
    # createdBy: creat, lastModifiedBy: last_modifi
    "get_site": ["display_name", "creat", "creat_date_time", "last_modifi", "web_url"],
    **{f"list_things_{n}": ["display_name"] for n in range(16)},
}


def index_of(weights: Weights | None = None) -> SearchIndex:
    docs = [analyse(entry_texts(e)) for e in ENTRIES]
    for doc, e in zip(docs, ENTRIES, strict=True):
        doc["properties"] = PROPERTIES.get(e["tool"]["name"], [])
    return SearchIndex(ENTRIES, weights, analysed=docs)


def first(request: str, weights: Weights | None = None) -> str:
    index = index_of(weights)
    return index.names(index.search(request))[0]


@pytest.mark.parametrize(
    ("request_", "expected", "without"),
    [
        # Without property names, the words find what the document says of other operations.
        ("what's Jamal's office location?", "get_user", "list_rooms"),
        ("change Lisa's job title to Senior Engineer", "update_user", "update_print_job"),
        ("what's the web URL of the Partners site?", "get_site", "get_site_analytics"),
    ],
)
def test_a_property_asked_finds_the_record_that_holds_it(request_: str, expected: str, without: str | None) -> None:
    assert first(request_) == expected
    assert first(request_, Weights(properties=0.0)) != expected
    if without:
        assert first(request_, Weights(properties=0.0)) == without


MADE, CHANGED_LAST = ("creat",), ("last", "modifi")


@pytest.mark.parametrize(
    ("request_", "held"),
    [
        ("who created the Partners SharePoint site?", MADE),
        ("Who uploaded Budget.xlsx?", MADE),
        ("who first added this label", MADE),
        ("who is the author of Budget.xlsx?", MADE),  # its author made it
        ("who last edited the roadmap doc?", CHANGED_LAST),
        ("who made the latest change to the budget workbook?", CHANGED_LAST),
        ("who modified this file last?", CHANGED_LAST),
        # Only making and the last change: a record holds who did those, while these ask for records of
        # their own.
        ("who changed PROJ-4 and when?", None),  # a history
        ("who reviewed PR 230?", None),  # the reviews
        ("create a site for the Partners team", None),
        ("list the sites who created", None),
    ],
)
def test_who_made_or_last_changed_a_thing_is_read_from_the_question(
    request_: str, held: tuple[str, ...] | None
) -> None:
    assert who_did(request_) == held


def test_who_made_a_thing_finds_the_record_that_holds_its_maker() -> None:
    # Without it, "created" finds creating a site; the site's record holds who created it (createdBy).
    request_ = "who created the Partners site?"
    assert first(request_) == "get_site"
    assert first(request_, Weights(properties=0.0)) == "create_site"


def test_who_last_changed_a_thing_raises_the_record_that_holds_its_last_editor() -> None:
    docs = [{**analyse(entry_texts(e)), "properties": PROPERTIES.get(e["tool"]["name"], [])} for e in ENTRIES]
    request_ = "who last changed the Partners site?"
    raised = Properties(docs, 1.0, 0.5).scores(request_, intent(request_))
    assert [ENTRIES[number]["tool"]["name"] for number in raised] == ["get_site"]


def test_a_phrase_naming_a_resource_is_that_resource_not_a_property() -> None:
    docs = [{**analyse(entry_texts(e)), "properties": PROPERTIES.get(e["tool"]["name"], [])} for e in ENTRIES]
    properties = Properties(docs, 1.0, 0.5)
    # The users' records hold a manager, but the API has /users/{id}/manager: the words find that.
    assert properties.scores("who is Maria's manager", intent("who is Maria's manager")) == {}
    assert first("who is Maria's manager") == "get_manager"


def test_a_property_named_whole_counts_more_than_one_whose_name_holds_the_words() -> None:
    docs: list[dict[str, Any]] = [
        {"resource": ["user"], "properties": ["phone"]},
        {"resource": ["contact"], "properties": ["mobil_phone"]},
    ]
    docs += [{"resource": ["other"], "properties": ["other"]}] * 8  # a name many records hold is worth less
    scores = Properties(docs, 1.0, 0.5).scores("what's Ravi's phone", frozenset({"GET"}))
    assert set(scores) == {0, 1}
    assert scores[1] == pytest.approx(scores[0] * 0.5)


def test_a_phrase_no_property_holds_whole_is_read_by_its_rarer_part() -> None:
    docs: list[dict[str, Any]] = [
        {"resource": ["repo"], "properties": ["homepag", "url"]},
        {"resource": ["user"], "properties": ["mobil_phone"]},
    ]
    docs += [{"resource": ["other"], "properties": ["url"]}] * 8  # "url": a name every record holds
    properties = Properties(docs, 1.0, 0.5)
    found = properties.scores("what's the homepage URL of octocat/Hello-World?", frozenset({"GET"}))
    assert max(found, key=lambda number: found[number]) == 0
    assert found[0] > found.get(2, 0.0)
    assert set(properties.scores("what's Ravi's phone number?", frozenset({"GET"}))) == {1}


def test_one_word_no_property_holds_is_read_by_what_the_lexicon_says_it_names() -> None:
    docs: list[dict[str, Any]] = [
        {"resource": ["repo"], "properties": ["name", "visibl"]},
        {"resource": ["user"], "properties": ["name"]},
    ]
    docs += [{"resource": ["other"], "properties": ["other"]}] * 8
    # "public" is no property's name; the lexicon says it is a visibility.
    assert set(Properties(docs, 1.0, 0.5).scores("make the repo public", frozenset({"PATCH"}))) == {0}


def test_a_phrase_the_lexicon_names_in_other_words_finds_the_property_of_those_words() -> None:
    docs: list[dict[str, Any]] = [
        {"resource": ["user"], "properties": ["employe_id", "mail"]},
        {"resource": ["booking"], "properties": ["staff_member_id", "number"]},
    ]
    docs += [{"resource": ["other"], "properties": ["other"]}] * 8
    # "staff number" is no property's name, and its words are the booking's: the lexicon says employee ID.
    found = Properties(docs, 1.0, 0.5).scores("look up Nina Ortiz's staff number", frozenset({"GET"}))
    assert max(found, key=lambda number: found[number]) == 0


def test_two_of_the_lexicons_words_in_a_row_may_name_the_property() -> None:
    docs: list[dict[str, Any]] = [
        {"resource": ["applic"], "properties": ["display_name", "password_credenti", "key_credenti"]},
        {"resource": ["user"], "properties": ["display_name", "mail"]},
    ]
    docs += [{"resource": ["other"], "properties": ["other"]}] * 8
    # "client secret" is a password credential (Microsoft Graph's passwordCredentials), not the whole lexicon entry.
    asked = "when does the client secret of the billing app expire?"
    found = Properties(docs, 1.0, 0.5).scores(asked, frozenset({"GET"}))
    assert set(found) == {0}


def test_making_something_into_what_it_is_not_is_a_change() -> None:
    assert "PATCH" in intent("make develop the default branch")
    assert "PATCH" in intent("make the repo private")
    assert intent("make a new branch called develop") == frozenset({"POST", "PUT"})


def test_show_me_is_whom_to_show_not_whose() -> None:
    assert "me" not in query_terms("show me all the devices that haven't checked in")
    assert "me" in query_terms("show my devices")


SPEC = """
openapi: 3.0.3
info: {title: People, version: "1"}
paths:
  /users:
    get:
      operationId: listUsers
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  "@odata.nextLink": {type: string}
                  value: {type: array, items: {$ref: "#/components/schemas/User"}}
  /users/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: string}}]
    get:
      operationId: getUser
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/User"}}}}
    patch:
      operationId: updateUser
      requestBody:
        content: {application/json: {schema: {$ref: "#/components/schemas/UserUpdate"}}}
      responses:
        "204": {description: updated}
    delete:
      operationId: deleteUser
      responses:
        "204": {description: deleted}
components:
  schemas:
    Entity:
      type: object
      properties: {id: {type: string}}
    User:
      allOf:
        - $ref: "#/components/schemas/Entity"
        - type: object
          properties: {officeLocation: {type: string}, jobTitle: {type: string}}
    UserUpdate:
      type: object
      properties: {jobTitle: {type: string}, department: {type: string}}
"""


def test_search_json_holds_each_operations_property_names(tmp_path: Path) -> None:
    toolset, _ = build(write_spec(tmp_path, SPEC))
    names = [tool.name for tool in toolset.tools]
    properties = dict(zip(names, (doc["properties"] for doc in search_documents(toolset)), strict=True))
    assert set(properties["getUser"]) == {"id", "offic_locat", "job_titl"}  # through allOf and $ref
    assert set(properties["listUsers"]) == {"id", "offic_locat", "job_titl"}  # a list's items, not its wrapper
    assert set(properties["updateUser"]) == {"job_titl", "depart"}  # what a write takes
    assert properties["deleteUser"] == []


ARM_SPEC = """
openapi: 3.0.3
info: {title: Compute, version: "1"}
paths:
  /virtualMachines/{vmName}:
    parameters: [{name: vmName, in: path, required: true, schema: {type: string}}]
    get:
      operationId: getMachine
      summary: Retrieves information about a virtual machine.
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Machine"}}}}
  /virtualMachines/{vmName}/restart:
    parameters: [{name: vmName, in: path, required: true, schema: {type: string}}]
    post:
      operationId: restartMachine
      summary: Restarts a virtual machine.
      responses:
        "202": {description: accepted}
  /tasks/{task_gid}:
    parameters: [{name: task_gid, in: path, required: true, schema: {type: string}}]
    get:
      operationId: getTask
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties: {data: {type: object, properties: {followers: {type: array, items: {type: string}}}}}
components:
  schemas:
    Resource:
      type: object
      properties: {id: {type: string}, name: {type: string}, location: {type: string}}
    Machine:
      allOf:
        - $ref: "#/components/schemas/Resource"
        - type: object
          properties:
            properties:
              type: object
              properties: {licenseType: {type: string}, provisioningState: {type: string}}
"""


def test_a_records_fields_are_read_inside_its_envelope(tmp_path: Path) -> None:
    toolset, _ = build(write_spec(tmp_path, ARM_SPEC))
    documents = search_documents(toolset)
    assert {"licens_type", "provis_state", "locat"} <= set(documents[0]["properties"])  # Azure's "properties"
    assert "follow" in documents[2]["properties"]  # {"data": {...}}: JSON:API's, Asana's
    entries = [
        entry("getMachine", "GET", "/virtualMachines/{vmName}", "Retrieves information about a virtual machine."),
        entry("restartMachine", "POST", "/virtualMachines/{vmName}/restart", "Restarts a virtual machine."),
        entry("getTask", "GET", "/tasks/{task_gid}", "Get a task"),
    ]
    docs = [analyse(entry_texts(e)) for e in entries]
    for doc, found in zip(docs, documents, strict=True):
        doc["properties"] = found["properties"]
    index = SearchIndex(entries, analysed=docs)
    assert index.names(index.search("which license type is the db VM using?"))[0] == "getMachine"


def test_who_is_doing_something_to_a_thing_asks_for_a_property() -> None:
    assert phrases("who's following the budget task?") == ["following"]
    assert phrases("who is watching acme/widgets") == ["watching"]
    assert phrases("who is online right now") == [] and phrases("who's going to add the label?") == []


NESTED_SPEC = """
openapi: 3.0.3
info: {title: Directory, version: "1"}
paths:
  /me:
    get:
      operationId: getMe
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/User"}}}}
components:
  schemas:
    User:
      type: object
      properties:
        id: {type: string}
        displayName: {type: string}
        surname: {type: string}
        mailboxSettings:
          type: object
          properties:
            timeZone: {type: string}
            automaticRepliesSetting: {type: object, properties: {status: {type: string}}}
        photos: {type: array, items: {type: object, properties: {width: {type: integer}}}}
"""


def test_search_json_holds_the_fields_of_a_records_small_nested_objects(tmp_path: Path) -> None:
    toolset, _ = build(write_spec(tmp_path, NESTED_SPEC))
    properties = search_documents(toolset)[0]["properties"]
    # After the parent's name and "__"; one level only, and not a list's items.
    assert set(properties) == {
        "id",
        "display_name",
        "surnam",
        "mailbox_setting",
        "photo",
        "mailbox_setting__time_zone",
        "mailbox_setting__automat_repli_setting",
    }


def test_a_nested_field_answers_a_phrase_of_two_words_or_more() -> None:
    docs: list[dict[str, Any]] = [
        {"resource": ["me"], "properties": ["display_name", "mailbox_setting__automat_repli_setting"]},
        {"resource": ["channel"], "properties": ["display_name", "descript"]},
        {"resource": ["site"], "properties": ["display_name", "owner__descript"]},
    ]
    docs += [{"resource": ["other"], "properties": ["other"]}] * 8
    properties = Properties(docs, 1.0, 0.5)
    assert set(properties.scores("turn on automatic replies", frozenset({"PATCH", "PUT", "POST"}))) == {0}
    # One word is in a nested object of nearly every record: only a record's own field answers it.
    assert set(properties.scores("give the Design channel a new description", frozenset({"PATCH"}))) == {1}
