/*
 * cluster.h — `weir cluster start|stop|run|status` (private to src/cli): the cluster daemon's
 * lifecycle, and finding a running cluster for the SQL client.
 *
 * Contract: the weir home is $WEIR_HOME, else the parent of the binary's folder (build/weir ->
 * the repository). The configuration is $WEIR_CONF_DIR/config.yaml (default <home>/conf, as
 * Flink's FLINK_CONF_DIR), the logs go to $WEIR_LOG_DIR (default <home>/log): weir-cluster.log
 * (the daemon's stderr: its own log lines), weir-cluster.out (stdout: print sinks), and the files
 * weir-cluster.pid (the daemon's pid) and weir-cluster.rest (its REST address, "host port") and
 * weir-cluster.gateway (its SQL gateway endpoint, when enabled) that exist exactly while the daemon serves. `start` forks the daemon into the background (setsid),
 * waits until it serves (or reports why it could not start), and prints Flink's start-cluster
 * lines; a second start while one runs is refused. `stop` sends SIGTERM to the pid of the pid file
 * (only when that process is a weir cluster daemon), waits up to 30 s, then SIGKILL. `run` serves
 * in the foreground until SIGTERM/SIGINT. Exit status 0 on success, 1 on failure.
 * Depends on server/ and common/.
 */
#ifndef WEIR_CLI_CLUSTER_H
#define WEIR_CLI_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>

int wcli_cluster_main(int argc, char **argv);

/* The running cluster's REST endpoint, from the log folder; false when none is running
   (no files, or the recorded daemon is gone). */
bool wcli_cluster_find(char *host, size_t hostsz, int *port);
/* The running cluster's SQL gateway endpoint (Flink's SQL Gateway REST API), from the file
   weir-cluster.gateway the daemon writes beside weir-cluster.rest when its gateway is enabled;
   false when no cluster runs or it serves no gateway. */
bool wcli_cluster_find_gateway(char *host, size_t hostsz, int *port);

#endif
