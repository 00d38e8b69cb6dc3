DROP TABLE session_streams;
DROP TABLE deployment_facts;
DROP TABLE request_counters;
