#!/usr/bin/env python3
"""Writes the synthetic Cursor `state.vscdb` dumps of packages/import/src/cursor/fixtures/db/.

Run from that folder. Every record follows the shapes the open-source readers of Cursor's store
show (listed in ../SOURCES.md); texts, ids, paths and times are made up. A dump holds the
`composerData:<id>` values and the `bubbleId:<composer>:<bubble>` values in the order Cursor
writes them (a bubble, then the composer's headers naming it); `restoreCursorDb`
(src/testing/cursor-db.ts) writes it as a database.
"""
import json

BASIS = (
    "synthetic, from the shapes in jhlee0409/claude-code-history-viewer src-tauri/src/providers/cursor.rs, "
    "peteromallet/dataclaw dataclaw/parsers/cursor.py and michaeldhood/chatrxiv docs/cursor/storage-reference.md"
)
WS = "file:///home/dev/project"


def iso(second):
    return f"2026-12-04T10:{second // 60:02d}:{second % 60:02d}.000Z"


def user(bid, second, text, model=None, first=False):
    b = {"_v": 3, "type": 1, "bubbleId": bid, "text": text, "richText": "", "createdAt": iso(second),
         "images": [], "attachedCodeChunks": []}
    if model is not None:
        b["modelInfo"] = {"modelName": model}
    if first:
        b["workspaceUris"] = [WS]
    return b


def assistant(bid, second, text="", **extra):
    b = {"_v": 3, "type": 2, "bubbleId": bid, "text": text, "createdAt": iso(second), "codeBlocks": [],
         "tokenCount": {"inputTokens": 0, "outputTokens": 0}}
    b.update(extra)
    return b


def tool(call_id, name, args, status, result=None, **extra):
    t = {"tool": 7, "toolCallId": call_id, "name": name, "rawArgs": json.dumps(args), "params": json.dumps(args),
         "status": status}
    if result is not None:
        t["result"] = json.dumps(result)
    t.update(extra)
    return t


def composer(cid, created, name, bubbles, **extra):
    c = {"_v": 10, "composerId": cid, "name": name, "text": "", "createdAt": created,
         "lastUpdatedAt": created + 60_000, "status": "completed", "unifiedMode": "agent",
         "modelConfig": {"modelName": "claude-4-sonnet", "maxMode": False},
         "fullConversationHeadersOnly": [{"bubbleId": b["bubbleId"], "type": b["type"]} for b in bubbles],
         "conversationMap": {}, "generatingBubbleIds": []}
    c.update(extra)
    return c


def dump(scenario, composers):
    out = {"harness": "cursor", "scenario": scenario, "basis": BASIS, "composers": [], "bubbles": []}
    for c, bubbles in composers:
        out["composers"].append({"id": c["composerId"], "value": c})
        for b in bubbles:
            out["bubbles"].append({"composerId": c["composerId"], "bubbleId": b["bubbleId"], "value": b})
    with open(f"db/{scenario}.json", "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


T0 = 1796378400000  # 2026-12-04T10:00:00Z

multi = [
    user("b1", 0, "Please say hello.", model="claude-4-sonnet", first=True),
    assistant("b2", 5, "Hello!", tokenCount={"inputTokens": 1200, "outputTokens": 8}),
    user("b3", 60, "What is 2 + 2?", model="gpt-5"),
    assistant("b4", 65, "4.", tokenCount={"inputTokens": 1300, "outputTokens": 3}),
]
empty = composer("c-empty", T0 - 3_600_000, "", [], status="none")
dump("multi-turn", [(composer("c-multi", T0, "Greeting and arithmetic", multi), multi), (empty, [])])

tools = [
    user("t1", 0, "Read the README, then run the tests.", model="claude-4-sonnet", first=True),
    assistant("t2", 2, "", thinking={"text": "I should read the README first."}, isThought=False),
    assistant("t3", 3, "", toolFormerData=tool("toolu_01", "read_file", {"target_file": "README.md"}, "completed",
                                                {"contents": "# Project\nA sample."}),
              capabilityType=15),
    assistant("t4", 4, "Running the tests.",
              toolFormerData=tool("toolu_02", "run_terminal_cmd", {"command": "npm test"}, "error",
                                  {"output": "1 failing", "exitCode": 1})),
    assistant("t5", 5, "", toolFormerData=tool("toolu_03", "edit_file", {"target_file": "a.ts", "code_edit": "x"},
                                                "completed", userDecision="rejected")),
    assistant("t6", 6, "", toolFormerData={"additionalData": {"status": "done"}}),
    assistant("t7", 7, "", toolFormerData=tool("toolu_04", "codebase_search", {"query": "tests"}, "loading")),
    assistant("t8", 8, "One test fails; the edit was rejected.", tokenCount={"inputTokens": 5000, "outputTokens": 40}),
    user("t9", 60, "Thanks."),
]
dump("tool-calls", [(composer("c-tools", T0, "", tools), tools)])

# An older composer (before bubbles had keys of their own): the conversation inline, no ISO times.
inline = [
    {"type": 1, "bubbleId": "i1", "text": "Explain this function.", "workspaceUris": ["file:///home/dev/old"]},
    {"type": 2, "bubbleId": "i2", "text": "It adds two numbers."},
]
old = {"_v": 2, "composerId": "c-inline", "name": "Explain add", "createdAt": T0 - 86_400_000,
       "conversation": inline, "status": "completed"}
dump("inline", [(old, [])])
