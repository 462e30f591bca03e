SET; SET 'execution.runtime-mode' = 'batch'; SET pipeline.name = 'x'; SET table.exec.state.ttl = 1000;
RESET; RESET 'table.exec.state.ttl'; RESET pipeline.name;
SET execution.runtime-type=
