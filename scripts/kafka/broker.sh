#!/usr/bin/env bash
# Runs a single-node Kafka broker (KRaft, broker and controller in one process) on 127.0.0.1 for
# Sluice's tests and demos.
#
#   broker.sh start <state-dir> [--fresh] [--owner <pid>|parent]
#       Starts the broker whose configuration, data and logs live in <state-dir> and returns once
#       it answers metadata requests; <state-dir>/bootstrap then holds its address (host:port).
#       The first start picks free ports and formats the storage; later starts of the same
#       <state-dir> reuse both, so a restart keeps the ports and the data. A broker still running
#       from <state-dir> is stopped first; --fresh then empties <state-dir> (new ports, no
#       topics). With --owner, the broker is stopped once that process (or, with "parent", the
#       caller of this script) is gone, so a crashed test run leaves no broker behind.
#   broker.sh stop <state-dir>
#       Stops that broker: SIGTERM, then SIGKILL if it has not exited after a bound. Succeeds when
#       no broker runs.
#   broker.sh kill <state-dir>
#       Kills that broker at once (SIGKILL), as a crash would; its data stays for the next start.
#
# Environment: SLUICE_KAFKA_LIBS (the broker's jars; default: fetched by fetch.sh),
# SLUICE_KAFKA_START_TIMEOUT (seconds to wait for the broker to answer; default 60).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
stop_timeout_seconds=30

usage() {
  echo "usage: $0 start <state-dir> [--owner <pid>|parent] | stop <state-dir> | kill <state-dir>" >&2
  exit 2
}

fail() {
  echo "broker.sh: $*" >&2
  exit 1
}

# The pid of the broker started from the state dir, if it still runs. The command line is checked
# so that a recycled pid never gets a signal meant for the broker.
running_broker_pid() {
  local pid
  pid="$(cat "$state/broker.pid" 2>/dev/null)" || return 1
  [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF "kafka.Kafka $state/server.properties" || return 1
  echo "$pid"
}

log_tails() {
  local file
  for file in "$state/broker.log" "$state/console.log"; do
    if [ -s "$file" ]; then
      echo "--- last lines of $file:" >&2
      tail -n 40 "$file" >&2
    fi
  done
}

stop_broker() {
  local pid waited=0
  if pid="$(running_broker_pid)"; then
    kill -TERM "$pid" 2>/dev/null || true
    while kill -0 "$pid" 2>/dev/null; do
      if [ "$waited" -ge $((stop_timeout_seconds * 10)) ]; then
        echo "broker.sh: the broker (pid $pid) did not stop within ${stop_timeout_seconds}s of SIGTERM; killing it" >&2
        kill -KILL "$pid" 2>/dev/null || true
      fi
      sleep 0.1
      waited=$((waited + 1))
    done
  fi
  rm -f "$state/broker.pid" "$state/bootstrap"
}

kill_broker() {
  local pid
  if pid="$(running_broker_pid)"; then
    kill -KILL "$pid" 2>/dev/null || true
    while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  fi
  rm -f "$state/broker.pid" "$state/bootstrap"
}

# The JVM command line shared by the storage tool and the broker (an array: the class path's
# "*" is Java's, not the shell's).
set_java_command() {
  java_command=(java -Xmx512m -Xms128m -XX:+UseG1GC -Djava.awt.headless=true
    "-Dlog4j2.configurationFile=$state/log4j2.properties" -cp "$libs/*")
}

write_configuration() {
  local ports broker_port controller_port
  ports="$(python3 -c '
import socket
# Both sockets stay open until both ports are known, so the two ports differ.
sockets = [socket.socket() for _ in range(2)]
for s in sockets:
    s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in sockets))
')"
  read -r broker_port controller_port <<<"$ports"
  cat >"$state/server.properties" <<PROPERTIES
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$controller_port
listeners=PLAINTEXT://127.0.0.1:$broker_port,CONTROLLER://127.0.0.1:$controller_port
advertised.listeners=PLAINTEXT://127.0.0.1:$broker_port
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
log.dirs=$state/data
num.partitions=1
# One node: every internal topic has one replica and needs one in sync.
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
# Consumer groups form at once instead of waiting for more members.
group.initial.rebalance.delay.ms=0
# Records are kept however old their timestamps: tests write records stamped in 1970, which
# the default retention of 7 days would delete at the next check. Tests that age records out
# set a topic's retention.ms, and see it applied within a second.
log.retention.ms=-1
log.retention.check.interval.ms=1000
PROPERTIES
  cat >"$state/log4j2.properties" <<PROPERTIES
# Warnings and errors only, to a file in the state dir: the broker is chatty at INFO.
appender.file.type = File
appender.file.name = file
appender.file.fileName = $state/broker.log
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = WARN
rootLogger.appenderRef.file.ref = file
PROPERTIES
}

format_storage() {
  local cluster_id
  cluster_id="$("${java_command[@]}" kafka.tools.StorageTool random-uuid 2>>"$state/console.log")" ||
    { log_tails; fail "could not create a cluster id with kafka.tools.StorageTool"; }
  "${java_command[@]}" kafka.tools.StorageTool format -t "$cluster_id" -c "$state/server.properties" \
    --ignore-formatted >>"$state/console.log" 2>&1 ||
    { log_tails; fail "could not format the broker storage in $state/data"; }
}

# Stops the broker once the owner process is gone; ends by itself when the broker stops first.
watch_owner() {
  local owner="$1" broker="$2"
  setsid bash -c '
    while kill -0 "$1" 2>/dev/null && kill -0 "$2" 2>/dev/null; do sleep 1; done
    if kill -0 "$2" 2>/dev/null; then exec "$3" stop "$4"; fi
  ' watcher "$owner" "$broker" "$here/broker.sh" "$state" </dev/null >/dev/null 2>&1 &
}

start_broker() {
  local owner="" fresh=false timeout="${SLUICE_KAFKA_START_TIMEOUT:-60}" pid address deadline
  while [ $# -gt 0 ]; do
    case "$1" in
      --owner)
        [ $# -ge 2 ] || usage
        owner="$2"
        [ "$owner" = parent ] && owner="$PPID"
        shift 2
        ;;
      --fresh)
        fresh=true
        shift
        ;;
      *) usage ;;
    esac
  done
  libs="${SLUICE_KAFKA_LIBS:-$("$here/fetch.sh")}"
  compgen -G "$libs/kafka_2.13-*.jar" >/dev/null ||
    fail "no Kafka broker jars in $libs; run scripts/kafka/fetch.sh"

  set_java_command
  stop_broker
  if $fresh; then
    find "$state" -mindepth 1 -delete
  fi
  [ -f "$state/server.properties" ] || write_configuration
  [ -f "$state/data/meta.properties" ] || format_storage

  # setsid: the broker leaves the caller's session and process group, so that a test runner
  # ending the process group of a finished test does not end the broker with it. All of its
  # output goes to files: a runner waits for the pipes it handed out to close.
  setsid "${java_command[@]}" kafka.Kafka "$state/server.properties" \
    </dev/null >>"$state/console.log" 2>&1 &
  pid=$!
  echo "$pid" >"$state/broker.pid"
  [ -z "$owner" ] || watch_owner "$owner" "$pid"

  address="127.0.0.1:$(sed -n 's/^listeners=PLAINTEXT:\/\/127\.0\.0\.1:\([0-9]*\),.*/\1/p' \
    "$state/server.properties")"
  deadline=$((SECONDS + timeout))
  until python3 "$here/broker_probe.py" "$address"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      log_tails
      rm -f "$state/broker.pid"
      fail "the Kafka broker of $state exited while starting"
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      log_tails
      stop_broker
      fail "the Kafka broker of $state did not answer on $address within ${timeout}s"
    fi
    sleep 0.2
  done
  echo "$address" >"$state/bootstrap.partial"
  mv "$state/bootstrap.partial" "$state/bootstrap"
  echo "$address"
}

[ $# -ge 2 ] || usage
command="$1"
mkdir -p "$2"
state="$(cd "$2" && pwd)"
shift 2
case "$command" in
  start) start_broker "$@" ;;
  stop) [ $# -eq 0 ] || usage; stop_broker ;;
  kill) [ $# -eq 0 ] || usage; kill_broker ;;
  *) usage ;;
esac
