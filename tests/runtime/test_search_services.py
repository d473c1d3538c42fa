"""Search mode: the everyday words of hosted services (databases, texts and calls, credit) and product names."""

from __future__ import annotations

from helpers import search_entry as entry
from helpers import search_first as first
from mcpforge.runtime.modes.asks import query_terms
from mcpforge.runtime.modes.sentences import intent
from mcpforge.runtime.modes.words import stem


def test_a_snapshot_taken_is_made_and_a_database_is_a_db_instance() -> None:
    assert intent("take a snapshot of the orders database") == intent("create a snapshot of the orders database")
    assert intent("take a manual snapshot of the prod cluster") == intent("create a snapshot of the prod cluster")
    assert "GET" in intent("take a look at the orders database")
    said = query_terms("which of our databases are still on version 5.7?")
    assert said[stem("db")] >= 0.5 and said[stem("instance")] >= 0.5
    assert query_terms("reboot the reporting db")[stem("database")] >= 0.8


def test_when_something_happens_says_little_of_what_to_call() -> None:
    said = query_terms("take a snapshot of the database before the migration")
    assert said[stem("before")] < 0.5 and said[stem("snapshot")] == 1.0
    assert query_terms("list the users created after June")[stem("after")] < 0.5


def test_a_product_name_ending_in_capitals_is_a_name_not_its_words() -> None:
    said = query_terms("which of our databases still run MySQL 5.7?")
    assert said["mysql"] == 1.0 and said[stem("sql")] == 1.0
    assert stem("user") not in said and stem("member") not in said  # "My" is no one's
    assert query_terms("create a PostgreSQL cluster")["postgresql"] == 1.0


def test_texts_that_came_in_calls_made_and_credit_topped_up() -> None:
    entries = [
        entry("list_inbound_sms", "GET", "/sms/inbound", "Get all inbound SMS"),
        entry("list_sms_history", "GET", "/sms/history", "Get all history"),
        entry("purchase_package", "PUT", "/recharge/purchase/{package_id}", "Purchase a package"),
        entry("transfer_credit", "PUT", "/reseller/transfer-credit", "Transfer credit"),
        entry("send_voice", "POST", "/voice/send", "Send a voice call"),
        entry("list_voice_history", "GET", "/voice/history", "Get voice history"),
    ]
    assert first(entries, "show the texts customers sent back to us today") == "list_inbound_sms"
    assert first(entries, "list the incoming texts") == "list_inbound_sms"
    assert first(entries, "top up the account") == "purchase_package"
    assert intent("call the customer and read out their code") == intent("send a voice call")
    assert intent("call off the meeting") != intent("call the customer")
    assert query_terms("how much will it cost to send this message to 500 people?")[stem("sms")] >= 0.4


def test_where_something_is_is_its_location_and_what_is_spun_up_is_made() -> None:
    entries = [
        entry("get_character", "GET", "/characters/{character_id}/", "Get character's public information"),
        entry("get_location", "GET", "/characters/{character_id}/location/", "Get character location"),
        entry("get_ship", "GET", "/characters/{character_id}/ship/", "Get current ship"),
    ]
    assert first(entries, "where is my character right now?") == "get_location"
    assert stem("location") not in query_terms("list the repos where I am an admin")
    assert intent("spin up a notebook for the intern") == intent("create a notebook for the intern")


def test_a_thing_is_a_resource_a_device_may_be_one_and_a_version_asked_is_the_services() -> None:
    entries = [
        entry("delete_thing", "DELETE", "/things/{thingName}", "Deletes the specified thing"),
        entry("delete_policy", "DELETE", "/policies/{policyName}", "Deletes the specified policy"),
        entry("list_things", "GET", "/things", "Lists your things"),
        entry("list_fleet_metrics", "GET", "/fleet-metrics", "Lists all your fleet metrics"),
        entry("get_system", "GET", "/system", "Get system information"),
        entry("get_instance_tags", "GET", "/instances/{id}/tags", "Get DICOM tags of the instance"),
    ]
    assert first(entries, "delete the old test thing") == "delete_thing"
    assert stem("thing") in query_terms("list all the devices in the fleet")
    assert first(entries, "what version of Orthanc is running?") == "get_system"


def test_a_delivery_rescheduled_is_changed_and_drivers_are_workers() -> None:
    assert intent("reschedule the delivery to Friday") == intent("update the delivery")
    assert intent("postpone the pickup") == intent("update the pickup")
    assert stem("worker") in query_terms("where are my drivers right now?")


def test_a_teams_message_to_someone_is_a_chat() -> None:
    assert query_terms("send Jorge a Teams message saying the deck is ready")[stem("chat")] >= 0.7
    assert stem("chat") not in query_terms("who is on the Design team in Teams")  # a team's members
