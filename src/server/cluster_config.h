/*
 * cluster_config.h — the cluster's configuration file (conf/config.yaml), read as Flink reads it.
 *
 * Contract: wyaml_flatten reads the YAML subset Flink's config.yaml uses — nested maps by
 * indentation (`rest:` / `  port: 8081`) and flat dotted keys (`rest.port: 8081`, the legacy
 * flink-conf.yaml form), comments, quoted scalars, inline lists `[a, b]` and `- item` lists
 * (joined with ';' as Flink's legacy list values are) — into dotted keys in file order. A line it
 * cannot read is an error naming the file line. wcluster_config_load reads a file (a missing file
 * is not an error: every key keeps Flink's default). Accessors give the REST endpoint settings with
 * Flink's defaults: rest.bind-address, else rest.address, else localhost; rest.port 8081 (a range
 * "8081-8090" is allowed: the first free port is used). Depends on common/ only.
 */
#ifndef WEIR_SERVER_CLUSTER_CONFIG_H
#define WEIR_SERVER_CLUSTER_CONFIG_H

#include <stdbool.h>
#include "../common/options.h"
#include "../common/error.h"

typedef struct WClusterConfig {
    WOptions opts;          /* flattened keys in file order */
    char *path;             /* the file read (heap), NULL when none */
} WClusterConfig;

/* Flatten YAML text into out (keys are added/replaced). `name` is used in error messages. */
bool wyaml_flatten(const char *text, const char *name, WOptions *out, WError *err);

void wcluster_config_init(WClusterConfig *c);
/* Load path into c (after init). Missing file: true, no keys. Unreadable or malformed: false. */
bool wcluster_config_load(WClusterConfig *c, const char *path, WError *err);
void wcluster_config_free(WClusterConfig *c);

const char *wcluster_get(const WClusterConfig *c, const char *key, const char *dflt);
/* Address the REST server binds to (rest.bind-address, rest.address, "localhost"). */
const char *wcluster_bind_address(const WClusterConfig *c);
/* Address clients connect to (rest.address, else the bind address; 0.0.0.0 becomes localhost). */
const char *wcluster_connect_address(const WClusterConfig *c);
/* Port range from rest.port ("8081" or "8081-8090"); false when malformed (err set). */
bool wcluster_port_range(const WClusterConfig *c, int *lo, int *hi, WError *err);
/* Flink's SQL gateway endpoint: sql-gateway.endpoint.rest.bind-port (a range allowed), else
   .port, default 8083; bind address sql-gateway.endpoint.rest.bind-address, else .address, else
   the REST bind address. */
bool wcluster_gateway_port_range(const WClusterConfig *c, int *lo, int *hi, WError *err);
const char *wcluster_gateway_bind_address(const WClusterConfig *c);
/* Address clients connect to the SQL gateway endpoint at (sql-gateway.endpoint.rest.address, else
   the gateway bind address; 0.0.0.0 becomes localhost). */
const char *wcluster_gateway_connect_address(const WClusterConfig *c);

#endif
