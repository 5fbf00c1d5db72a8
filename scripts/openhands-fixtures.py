import json, os
PNG="iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
def write(folder, events, metadata=None):
    ev=os.path.join(folder,'events'); os.makedirs(ev,exist_ok=True)
    for e in events: open(os.path.join(ev,f"{e['id']}.json"),'w').write(json.dumps(e))
    if metadata is not None: open(os.path.join(folder,'metadata.json'),'w').write(json.dumps(metadata))
def ts(s): return f"2026-12-04T11:{s//60:02d}:{s%60:02d}.000001"
def metrics(cost,p,c,cr=0,cw=0): return {"accumulated_cost":cost,"max_budget_per_task":None,"accumulated_token_usage":{"model":"anthropic/claude-sonnet-4-5","prompt_tokens":p,"completion_tokens":c,"cache_read_tokens":cr,"cache_write_tokens":cw,"context_window":200000,"per_turn_token":0,"response_id":""},"costs":[],"response_latencies":[],"token_usages":[]}
def tcm(fn,tid,rid,model="claude-sonnet-4-5",n=1): return {"function_name":fn,"tool_call_id":tid,"model_response":{"id":rid,"model":model,"object":"chat.completion","choices":[]},"total_calls_in_response":n}
def state(i,s,reason=""): return {"id":i,"timestamp":ts(i),"source":"environment","message":"","observation":"agent_state_changed","content":"","extras":{"agent_state":s,"reason":reason}}
sid="5f2b0c9e8a7d4c3b9e1f0a2b3c4d5e6f"
E=[
 {"id":0,"timestamp":ts(0),"source":"agent","message":"","action":"system","args":{"content":"You are OpenHands agent...","tools":[],"openhands_version":"0.62.0","agent_class":"CodeActAgent"}},
 state(1,"running"),
 {"id":2,"timestamp":ts(2),"source":"user","message":"","action":"message","args":{"content":"What is in this picture? Then list the files.","file_urls":[],"image_urls":["data:image/png;base64,"+PNG],"wait_for_response":False}},
 {"id":3,"timestamp":ts(3),"source":"user","message":"","action":"recall","args":{"recall_type":"workspace_context","query":"What is in this picture?","thought":""}},
 {"id":4,"timestamp":ts(4),"source":"environment","message":"","cause":3,"observation":"recall","content":"Added workspace context","extras":{"recall_type":"workspace_context"}},
 {"id":5,"timestamp":ts(5),"source":"agent","message":"Running command: ls","action":"run","tool_call_metadata":tcm("execute_bash","toolu_01","resp_1",n=2),"llm_metrics":metrics(0.01,1200,40,1000,0),"args":{"command":"ls","is_input":False,"thought":"A single pixel. Listing the files:","blocking":False,"hidden":False,"confirmation_state":"confirmed","security_risk":-1}},
 {"id":6,"timestamp":ts(6),"source":"agent","message":"","action":"think","tool_call_metadata":tcm("think","toolu_02","resp_1",n=2),"llm_metrics":metrics(0.01,1200,40,1000,0),"args":{"thought":"The listing will tell me the layout."}},
 {"id":7,"timestamp":ts(7),"source":"agent","message":"","cause":5,"observation":"run","tool_call_metadata":tcm("execute_bash","toolu_01","resp_1",n=2),"content":"README.md\nsrc","extras":{"command":"ls","metadata":{"exit_code":0,"pid":-1,"username":"root","hostname":"x","working_dir":"/workspace","py_interpreter_path":"","prefix":"","suffix":""},"hidden":False},"success":True},
 {"id":8,"timestamp":ts(8),"source":"agent","message":"","cause":6,"observation":"think","tool_call_metadata":tcm("think","toolu_02","resp_1",n=2),"content":"Your thought has been logged.","extras":{}},
 {"id":9,"timestamp":ts(9),"source":"agent","message":"Running command: cat MISSING","action":"run","tool_call_metadata":tcm("execute_bash","toolu_03","resp_2"),"llm_metrics":metrics(0.02,2500,80,2200,0),"args":{"command":"cat MISSING","is_input":False,"thought":"","blocking":False,"hidden":False,"confirmation_state":"confirmed"}},
 {"id":10,"timestamp":ts(10),"source":"agent","message":"","cause":9,"observation":"run","tool_call_metadata":tcm("execute_bash","toolu_03","resp_2"),"content":"cat: MISSING: No such file or directory","extras":{"command":"cat MISSING","metadata":{"exit_code":1},"hidden":False},"success":False},
 {"id":11,"timestamp":ts(11),"source":"agent","message":"","action":"message","llm_metrics":metrics(0.03,3900,120,3400,0),"args":{"content":"It is one pixel; the project has README.md and src.","file_urls":None,"image_urls":None,"wait_for_response":True}},
 state(12,"awaiting_user_input"),
 {"id":13,"timestamp":ts(13),"source":"user","message":"","action":"message","args":{"content":"Summarize everything.","file_urls":[],"image_urls":[],"wait_for_response":False}},
 state(14,"running"),
 {"id":15,"timestamp":ts(15),"source":"agent","message":"","action":"condensation","args":{"forgotten_event_ids":None,"forgotten_events_start_id":2,"forgotten_events_end_id":10,"summary":"The person asked about a picture and the files.","summary_offset":1}},
 {"id":16,"timestamp":ts(16),"source":"agent","message":"","action":"finish","llm_metrics":metrics(0.04,5000,160,4400,0),"args":{"final_thought":"Done: one pixel, README.md and src.","outputs":{},"thought":""}},
 state(17,"finished"),
 {"id":18,"timestamp":ts(18),"source":"user","message":"","action":"message","args":{"content":"One more thing.","image_urls":[],"wait_for_response":False}},
 {"id":19,"timestamp":ts(19),"source":"environment","message":"","observation":"error","content":"litellm.RateLimitError: rate limited","extras":{"error_id":""}},
 state(20,"error","RateLimitError"),
]
meta={"conversation_id":sid,"selected_repository":None,"user_id":None,"selected_branch":None,"git_provider":None,"title":"Picture and files","last_updated_at":"2026-12-04T11:00:20+00:00","trigger":"gui","pr_number":[],"created_at":"2026-12-04T11:00:00+00:00","llm_model":"anthropic/claude-sonnet-4-5","accumulated_cost":0.04,"prompt_tokens":5000,"completion_tokens":160,"total_tokens":5160}
write(f"synthetic/{sid}",E,meta)
# damaged
D=[E[2],E[5],E[7],{"id":3,"timestamp":ts(3),"source":"agent","message":"","action":"teleport","args":{}},E[11]]
D[3]=dict(D[3]); D[3]["id"]=8
write("damaged/0badbad0badbad0badbad0badbad00",[D[0],D[1],D[2],D[3],dict(E[11],id=9)])
open("damaged/0badbad0badbad0badbad0badbad00/events/10.json","w").write('{"id": 10, "timestamp": "2026-12-04T11:00:10", "source": "agent", "act')
