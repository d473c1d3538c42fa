"""Search mode: the words of trades' tools (service desks, marketplaces, monitoring, Wi-Fi networks)."""

from __future__ import annotations

from helpers import search_entry as entry
from helpers import search_first as first
from helpers import search_names
from mcpforge.runtime.modes.asks import query_terms
from mcpforge.runtime.modes.intents import CREATE
from mcpforge.runtime.modes.sentences import intent
from mcpforge.runtime.modes.words import stem

SERVICE_DESK = [
    entry("create_ticket", "POST", "/tickets", "Create a ticket"),
    entry("query_tickets", "POST", "/tickets/query", "Query tickets"),
    entry("create_time_entry", "POST", "/time-entries", "Create a time entry"),
    entry("query_time_entries", "POST", "/time-entries/query", "Query time entries"),
    entry("query_deleted_ticket_logs", "POST", "/deleted-ticket-logs/query", "Query deleted ticket logs"),
    entry("update_work_type", "PUT", "/work-type-modifiers", "Update a work type modifier"),
]


def test_a_ticket_opened_is_made_and_what_follows_the_colon_is_its_text() -> None:
    assert intent("open a ticket for Acme: printer not working") == CREATE
    assert intent("open an issue about the flaky test") == CREATE
    said = query_terms("open a ticket for Acme: printer not working")
    assert stem("work") not in said and stem("printer") not in said  # the ticket's text, not the call
    assert first(SERVICE_DESK, "open a ticket for Acme: printer not working") == "create_ticket"


def test_hours_said_by_their_amount_are_logged_time() -> None:
    assert first(SERVICE_DESK, "log 2 hours on ticket T2024") == "create_time_entry"
    assert first(SERVICE_DESK, "log 30 minutes against the printer ticket") == "create_time_entry"
    assert first(SERVICE_DESK, "how many hours were logged this month?") == "query_time_entries"


MARKETPLACE = [
    entry("create_listing", "POST", "/listings", "Create a listing"),
    entry("search_listings", "GET", "/listings", "Search listings"),
    entry("selling_orders", "GET", "/my/orders/selling/all", "Get all seller orders, newest first"),
    entry("awaiting_shipment", "GET", "/my/orders/selling/awaiting_shipment", "Get seller orders awaiting shipment"),
    entry("buying_orders", "GET", "/my/orders/buying/all", "Returns all orders, newest first"),
    entry("price_guide", "GET", "/priceguide/{id}/transactions/summary", "Summary of transactions for a price guide"),
    entry("conversations", "GET", "/my/conversations", "Get a list of your conversations"),
]


def test_a_marketplaces_words_for_selling_buying_and_shipping() -> None:
    assert intent("list my guitar for sale") == CREATE  # put up for sale: not a list to read
    assert query_terms("list my guitar for sale")[stem("sell")] == 1.0
    assert first(MARKETPLACE, "what orders do I need to ship?") == "awaiting_shipment"
    assert first(MARKETPLACE, "show my purchases") == "buying_orders"
    assert first(MARKETPLACE, "what's a used Boss DS-1 worth?") == "price_guide"


NETWORK = [
    entry("create_wlan", "POST", "/sites/{site_id}/wlans", "Create a site WLAN"),
    entry("create_network", "POST", "/orgs/{org_id}/networks", "Create an org network"),
    entry("authorize_guest", "PUT", "/sites/{site_id}/guests/{guest_mac}", "Update a guest authorization"),
    entry("create_psk", "POST", "/sites/{site_id}/psks", "Create a site PSK"),
    entry("invite_admin", "POST", "/orgs/{org_id}/invites", "Invite an org admin"),
    entry("ack_alarm", "POST", "/sites/{site_id}/alarms/{alarm_id}/ack", "Ack a site alarm"),
    entry("search_alarms", "GET", "/sites/{site_id}/alarms/search", "Search site alarms"),
    entry("create_map", "POST", "/sites/{site_id}/maps", "Create a site map"),
    entry("upload_portal_image", "POST", "/sites/{site_id}/wlans/{wlan_id}/portal_image", "Upload a portal image"),
    entry("put_alarm", "POST", "/alarms", "Creates or updates a metric alarm"),
    entry("get_metric_data", "GET", "/instances/{name}/metrics", "Get an instance's metric data"),
]


def test_wifi_networks_their_keys_alarms_and_floor_plans() -> None:
    # a Wi-Fi network is a WLAN: first where nothing else is said, beside the API's other networks where it is
    assert first(NETWORK, "set up a wifi for visitors at the Boston site") == "create_wlan"
    assert search_names(NETWORK, "add a wifi network for the warehouse", limit=2)[1] == "create_wlan"
    assert first(NETWORK, "generate a pre-shared key for a contractor") == "create_psk"
    assert first(NETWORK, "acknowledge the alarm") == "ack_alarm"
    assert intent("acknowledge the alarm") != intent("show the alarms")
    assert first(NETWORK, "upload a floor plan for the second floor") == "create_map"
    assert first(NETWORK, "alert me when the CPU goes over 80%") == "put_alarm"


def test_in_bulk_a_new_version_and_what_was_disapproved() -> None:
    shop = [
        entry("insert_product", "POST", "/{merchantId}/products", "Uploads a product to your Merchant Center account"),
        entry("batch_products", "POST", "/products/batch", "Inserts or deletes multiple products in a single request"),
        entry("list_products", "GET", "/{merchantId}/products", "Lists the products in your account"),
        entry("list_statuses", "GET", "/{merchantId}/productstatuses", "Lists the statuses of the products"),
        entry("create_app", "POST", "/Applications/$/Create", "Creates a Service Fabric application"),
        entry("upgrade_app", "POST", "/Applications/{applicationId}/$/Upgrade", "Starts upgrading an application"),
    ]
    assert first(shop, "upload products in bulk") == "batch_products"
    assert first(shop, "deploy a new version of the app") == "upgrade_app"
    assert first(shop, "which products were disapproved?") == "list_statuses"


TRACKING = [
    entry("get_traces", "GET", "/traces/v2/{trackingId}", "Gets all traces of the device recorded within a time range"),
    entry("get_events", "GET", "/events/v3", "Gets event history"),
    entry("get_location", "GET", "/locations/v4/{locationId}", "Gets a location details"),
    entry("get_shadow", "GET", "/shadows/v2/{trackingId}", "Gets the device shadow: its reported and desired state"),
    entry("list_sensor_rules", "GET", "/sensors/v3", "Gets all sensor rules"),
    entry("create_rule", "POST", "/rules/v4", "Creates a rule"),
    entry("delete_geofence", "DELETE", "/geofences/v2/{geofenceId}", "Deletes a geofence"),
    entry("status", "GET", "/status", "Check if the server is alive"),
    entry("list_nodes", "GET", "/nodes", "List managed nodes"),
]


def test_a_trackers_history_readings_state_rules_and_a_servers_health() -> None:
    assert first(TRACKING, "show the location history of the device for yesterday") == "get_traces"
    # readings are the device's telemetry or trace, not only the sensor rules the word "sensor" names
    read = query_terms("get the temperature readings from the sensor")
    assert read[stem("telemetry")] >= 0.6 and read[stem("trace")] >= 0.6
    assert first(TRACKING, "what's the battery level of the tracker?") == "get_shadow"
    assert "create_rule" in search_names(TRACKING, "alert me when the truck leaves the geofence", limit=2)
    assert first(TRACKING, "is the server healthy?") == "status"
    assert query_terms("alert me when the CPU goes over 80%")[stem("alarm")] >= 0.6  # an alert is still an alarm


def test_a_virtual_machine_is_a_vm_and_a_vlan_a_layer_2_network() -> None:
    network = [
        entry("get_vm", "GET", "/entities/vms/{id}", "Show vm details"),
        entry("get_host", "GET", "/entities/hosts/{id}", "Show host details"),
        entry("get_switch", "GET", "/entities/distributed-virtual-switches/{id}", "Show distributed virtual switch"),
        entry("list_l2", "GET", "/entities/layer2-networks", "List layer2 networks"),
        entry("get_version", "GET", "/info/version", "Show version info"),
    ]
    assert first(network, "get the details of virtual machine web-01") == "get_vm"
    assert first(network, "show the VLANs") == "list_l2"


def test_how_far_along_a_piece_of_work_is_its_progress() -> None:
    projects = [
        entry("get_progress", "GET", "/projects/{id}/progress", "View progress of a project"),
        entry("get_translations", "GET", "/documents/{id}/translations", "View strings and translations"),
        entry("translate", "POST", "/strings", "Translate strings with MT"),
    ]
    assert first(projects, "how far along is the translation?") == "get_progress"
