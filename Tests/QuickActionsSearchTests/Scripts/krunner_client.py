#!/usr/bin/python3
"""Calls org.kde.krunner1 on org.quickactions.Search1 as KRunner's DBusRunner does, with
python3's dbus: Config, Actions, Match(QUERY), then Run(RUN_ID, "") when given, Teardown.
Prints one JSON document.

    krunner_client.py ADDRESS QUERY [RUN_ID]
"""
import json
import sys

import dbus

bus = dbus.bus.BusConnection(sys.argv[1])
runner = dbus.Interface(bus.get_object("org.quickactions.Search1", "/org/quickactions/Search1/KRunner"),
                        "org.kde.krunner1")
config = {str(k): int(v) for k, v in runner.Config().items()}
actions = [list(map(str, a)) for a in runner.Actions()]
matches = []
for (match_id, text, icon, kind, relevance, properties) in runner.Match(sys.argv[2]):
    matches.append({"id": str(match_id), "text": str(text), "icon": str(icon), "type": int(kind),
                    "relevance": float(relevance), "subtext": str(properties.get("subtext", "")),
                    "category": str(properties.get("category", "")),
                    "actions": [str(a) for a in properties.get("actions", [])]})
if len(sys.argv) > 3:
    runner.SetActivationToken("qa-token")
    runner.Run(sys.argv[3], "")
runner.Teardown()
print(json.dumps({"config": config, "actions": actions, "matches": matches}))
