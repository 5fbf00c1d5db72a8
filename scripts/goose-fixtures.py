import json
PNG="iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
BASIS=("crates/goose/src/session/session_manager.rs@dbec1655c17720cb591291603f1337ed7856afbd (create_schema, add_message, replace_conversation); "
       "crates/goose/src/session/migrations.rs@865e4a030a67eb0c51869874b9c758cb1eb10595 (migrations 6-13); "
       "crates/goose/src/conversation/message.rs@05132966065f7dd80b97af7d080a41328d103073 (Message, MessageContent, MessageMetadata)")
SCHEMA13={
 "schema_version":"CREATE TABLE schema_version (\n version INTEGER PRIMARY KEY,\n applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP\n)",
 "sessions":"CREATE TABLE sessions (\n id TEXT PRIMARY KEY,\n name TEXT NOT NULL DEFAULT '',\n description TEXT NOT NULL DEFAULT '',\n user_set_name BOOLEAN DEFAULT FALSE,\n session_type TEXT NOT NULL DEFAULT 'user',\n working_dir TEXT NOT NULL,\n created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,\n updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,\n extension_data TEXT DEFAULT '{}',\n total_tokens INTEGER,\n input_tokens INTEGER,\n output_tokens INTEGER,\n accumulated_total_tokens INTEGER,\n accumulated_input_tokens INTEGER,\n accumulated_output_tokens INTEGER,\n schedule_id TEXT,\n recipe_json TEXT,\n user_recipe_values_json TEXT,\n provider_name TEXT,\n model_config_json TEXT,\n tenant_id TEXT,\n user_id TEXT,\n goose_mode TEXT NOT NULL DEFAULT 'auto',\n thread_id TEXT,\n archived_at TIMESTAMP,\n project_id TEXT,\n accumulated_cost REAL\n)",
 "messages":"CREATE TABLE messages (\n id INTEGER PRIMARY KEY AUTOINCREMENT,\n message_id TEXT,\n session_id TEXT NOT NULL REFERENCES sessions(id),\n role TEXT NOT NULL,\n content_json TEXT NOT NULL,\n created_timestamp INTEGER NOT NULL,\n timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP,\n tokens INTEGER,\n metadata_json TEXT\n)",
}
SCHEMA5={
 "schema_version":SCHEMA13["schema_version"],
 "sessions":"CREATE TABLE sessions (\n id TEXT PRIMARY KEY,\n description TEXT NOT NULL DEFAULT '',\n working_dir TEXT NOT NULL,\n created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,\n updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,\n extension_data TEXT DEFAULT '{}',\n total_tokens INTEGER,\n input_tokens INTEGER,\n output_tokens INTEGER,\n accumulated_total_tokens INTEGER,\n accumulated_input_tokens INTEGER,\n accumulated_output_tokens INTEGER,\n schedule_id TEXT,\n recipe_json TEXT,\n user_recipe_values_json TEXT,\n name TEXT DEFAULT '',\n user_set_name BOOLEAN DEFAULT FALSE,\n session_type TEXT NOT NULL DEFAULT 'user'\n)",
 "messages":"CREATE TABLE messages (\n id INTEGER PRIMARY KEY AUTOINCREMENT,\n session_id TEXT NOT NULL REFERENCES sessions(id),\n role TEXT NOT NULL,\n content_json TEXT NOT NULL,\n created_timestamp INTEGER NOT NULL,\n timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP,\n tokens INTEGER,\n metadata_json TEXT\n)",
}
VIS={"userVisible":True,"agentVisible":True}
def text(t): return {"type":"text","text":t}
def req(i,name,args): return {"type":"toolRequest","id":i,"toolCall":{"status":"success","value":{"name":name,"arguments":args}}}
def resp(i,items,err=False): return {"type":"toolResponse","id":i,"toolResult":{"status":"success","value":{"content":items,"isError":err}}}
def session(sid,name,created,provider="anthropic",model="claude-sonnet-4-5",stype="user",user_set=0,wd="/home/dev/project"):
  return {"id":sid,"name":name,"description":"","user_set_name":user_set,"session_type":stype,"working_dir":wd,
    "created_at":created,"updated_at":created,"extension_data":"{}","total_tokens":1500,"input_tokens":1400,"output_tokens":100,
    "accumulated_total_tokens":4200,"accumulated_input_tokens":3900,"accumulated_output_tokens":300,"schedule_id":None,
    "recipe_json":None,"user_recipe_values_json":None,"provider_name":provider,
    "model_config_json":json.dumps({"model_name":model,"context_limit":200000,"temperature":None,"max_tokens":None,"toolshim":False,"toolshim_model":None}),
    "tenant_id":None,"user_id":None,"goose_mode":"auto","thread_id":None,"archived_at":None,"project_id":None,"accumulated_cost":0.0123}
class Msgs:
  def __init__(s): s.rows=[]
  def add(s,sid,role,created,content,meta=VIS,mid=None):
    n=len(s.rows)+1
    s.rows.append({"id":n,"message_id":mid or f"msg_{sid}_{n:04d}","session_id":sid,"role":role,"content_json":json.dumps(content,separators=(",",":")),
      "created_timestamp":created,"timestamp":"2026-12-04 10:00:%02d"%(n%60),"tokens":None,"metadata_json":json.dumps(meta,separators=(",",":"))})
def dump(name,sessions,msgs,schema=SCHEMA13,version=13):
  d={"harness":"goose","scenario":name,"basis":BASIS,"schemaVersion":version,"schema":schema,"rows":{"sessions":sessions,"messages":msgs.rows}}
  open(f"db/{name}.json","w").write(json.dumps(d,indent=2)+"\n")

T=1796378400  # 2026-12-04T10:00:00Z
# multi-turn
m=Msgs(); S="20261204_1"
m.add(S,"user",T,[text("Please say hello.")])
m.add(S,"assistant",T+2,[text("Hello! How can I help?")])
m.add(S,"user",T+10,[text("What is 2 + 2?")])
m.add(S,"assistant",T+12,[text("4.")])
dump("multi-turn",[session(S,"Greeting and arithmetic","2026-12-04 10:00:00")],m)
# tool-calls
m=Msgs(); S="20261204_2"
m.add(S,"user",T+100,[text("List the files, then read the README.")])
m.add(S,"assistant",T+102,[{"type":"thinking","thinking":"I should list first.","signature":"sig"},text("I'll list the files."),req("toolu_01","developer__shell",{"command":"ls"})])
m.add(S,"user",T+103,[resp("toolu_01",[{"type":"text","text":"README.md\nsrc\n","annotations":{"audience":["assistant"]}},{"type":"text","text":"README.md\nsrc\n","annotations":{"audience":["user"],"priority":0.0}}])])
m.add(S,"assistant",T+104,[req("toolu_02","developer__text_editor",{"command":"view","path":"/home/dev/project/MISSING.md"})])
m.add(S,"user",T+105,[resp("toolu_02",[{"type":"text","text":"The path /home/dev/project/MISSING.md does not exist."}],True)])
m.add(S,"assistant",T+106,[{"type":"toolRequest","id":"toolu_03","toolCall":{"status":"error","error":"-32602: Could not interpret tool use parameters"}}])
m.add(S,"user",T+107,[{"type":"toolResponse","id":"toolu_03","toolResult":{"status":"error","error":"-32602: Could not interpret tool use parameters"}}])
m.add(S,"assistant",T+108,[req("toolu_04","developer__text_editor",{"command":"view","path":"/home/dev/project/README.md"})])
m.add(S,"user",T+109,[resp("toolu_04",[{"type":"text","text":"# Project\nA sample."}])])
m.add(S,"assistant",T+110,[text("The README says: A sample.")])
dump("tool-calls",[session(S,"List and read files","2026-12-04 10:01:40")],m)
# image
m=Msgs(); S="20261204_3"
m.add(S,"user",T+200,[{"type":"image","data":PNG,"mimeType":"image/png"},text("What is in this picture?")])
m.add(S,"assistant",T+202,[text("A single pixel.")])
dump("image",[session(S,"CLI Session","2026-12-04 10:03:20",provider="openai",model="gpt-4o")],m)
# compaction: goose rewrote the conversation (replace_conversation); old messages kept, hidden from the agent
m=Msgs(); S="20261204_4"
AGENT_INVISIBLE={"userVisible":True,"agentVisible":False}
AGENT_ONLY={"userVisible":False,"agentVisible":True}
USER_ONLY={"userVisible":True,"agentVisible":False}
m.add(S,"user",T+300,[text("Please say hello.")],AGENT_INVISIBLE)
m.add(S,"assistant",T+302,[text("Hello!")],AGENT_INVISIBLE)
m.add(S,"assistant",T+310,[{"type":"systemNotification","notificationType":"inlineMessage","msg":"Conversation compacted and summarized"}],USER_ONLY)
m.add(S,"user",T+310,[text("## Summary\nThe person said hello and was greeted.")],AGENT_ONLY)
m.add(S,"assistant",T+310,[text("The previous message contains a summary that was prepared because a context limit was reached. Do not mention that you read a summary or that conversation summarization occurred. Just continue the conversation naturally based on the summarized context")],AGENT_ONLY)
m.add(S,"user",T+320,[text("Go on.")])
m.add(S,"assistant",T+322,[{"type":"systemNotification","notificationType":"thinkingMessage","msg":"Thinking..."},text("Going on from the summary.")])
dump("compaction",[session(S,"Compacted chat","2026-12-04 10:05:00",user_set=1)],m)
# subagent + hidden sessions
m=Msgs(); P="20261204_5"; C="20261204_6"; H="20261204_7"
m.add(P,"user",T+400,[text("Ask a subagent to count the files.")])
m.add(P,"assistant",T+401,[req("toolu_10","subagent__execute_task",{"instructions":"Count the files in the project."})])
m.add(C,"user",T+402,[text("Count the files in the project.")])
m.add(C,"assistant",T+403,[text("There are 2 files.")])
m.add(P,"user",T+404,[resp("toolu_10",[{"type":"text","text":"There are 2 files."}])])
m.add(P,"assistant",T+405,[text("The subagent counted 2 files.")])
m.add(H,"user",T+406,[text("internal")])
dump("subagent",[session(P,"Counting files","2026-12-04 10:06:40"),session(C,"Subagent task","2026-12-04 10:06:42",stype="sub_agent"),session(H,"","2026-12-04 10:06:46",stype="hidden")],m)
# schema 5 (goose 1.9-era): no provider, no message_id
m=Msgs(); S="20251015_1"
rows=[]
for r in [("user",T-5000000,[text("Hello from an older goose.")]),("assistant",T-4999998,[text("Hi!")])]:
  m.add(S,*r)
for r in m.rows: del r["message_id"]
old={"id":S,"description":"Old greeting","working_dir":"/home/dev/old","created_at":"2025-10-15T08:00:00Z","updated_at":"2025-10-15T08:00:00Z",
  "extension_data":"{}","total_tokens":None,"input_tokens":None,"output_tokens":None,"accumulated_total_tokens":None,"accumulated_input_tokens":None,
  "accumulated_output_tokens":None,"schedule_id":None,"recipe_json":None,"user_recipe_values_json":None,"name":"","user_set_name":0,"session_type":"user"}
dump("schema-5",[old],m,SCHEMA5,5)

# legacy jsonl
def line(o): return json.dumps(o,separators=(",",":"))
meta={"working_dir":"/home/dev/legacy","description":"Legacy greeting","schedule_id":None,"message_count":4,"total_tokens":900,"input_tokens":850,"output_tokens":50,"accumulated_total_tokens":1800,"accumulated_input_tokens":1700,"accumulated_output_tokens":100}
msgs=[{"role":"user","created":T-9000000,"content":[text("Say hello, then run pwd.")]},
 {"role":"assistant","created":T-8999998,"content":[text("Hello!"),req("toolu_a1","developer__shell",{"command":"pwd"})]},
 {"role":"user","created":T-8999997,"content":[{"type":"toolResponse","id":"toolu_a1","toolResult":{"status":"success","value":[{"type":"text","text":"/home/dev/legacy"}]}}]},
 {"role":"assistant","created":T-8999996,"content":[text("You are in /home/dev/legacy.")]},
 {"role":"user","created":T-8999990,"content":[text("Thanks.")]},
 {"role":"assistant","created":T-8999989,"content":[text("You're welcome.")]}]
for x in msgs: x["metadata"]=VIS
open("legacy/20250301_101500.jsonl","w").write("\n".join([line(meta)]+[line(x) for x in msgs])+"\n")
# oldest: no metadata line, no metadata field
open("legacy/20250102_090000.jsonl","w").write("\n".join(line({"role":r,"created":T-9900000+i,"content":[text(t)]}) for i,(r,t) in enumerate([("user","Hi goose."),("assistant","Hi!")]))+"\n")
# damaged: malformed line, unknown content type, torn last line
d=[line(meta),line(msgs[0]),"{not json",line({"role":"assistant","created":T-8999998,"content":[{"type":"hologram","data":"x"},text("Still here.")],"metadata":VIS}),
   line({"role":"user","created":T-8999990,"content":[text("Next.")],"metadata":VIS}), line(msgs[5])[:40]]
open("damaged/20250301_111500.jsonl","w").write("\n".join(d))
