#!/usr/bin/env bash
# Event-heavy replay (issue 21, goal 1): ./quadfence replay beside the broadcast + STRtree peer
# (org.quadfence.bench.BroadcastStrTreeJob) on the same files, parallelism 2, alternating pairs,
# each run its own JVM under /usr/bin/time -v. Prints a markdown table of medians.
#
#   docs/bench/replay-vs-broadcast.sh [POSITIONS [FENCES [PAIRS [DIR]]]]
#
# Defaults: 2000000 positions, 100000 fences (EventHeavyFiles, 2% fence changes), 3 pairs,
# DIR target/replay-vs-broadcast (inputs, outputs, logs and /usr/bin/time reports stay there).
# Wall is JVM start to end; CPU-s is user + sys; peak RSS is the JVM's (./quadfence execs its
# java, so time measures that JVM itself). "events right": the share of quadfence's events
# (exact by contract section 3) that the run also wrote, compared on entity, group, fence, type
# and timestamp as multisets (lon, lat and properties follow from those).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
positions="${1:-2000000}"
fences="${2:-100000}"
pairs="${3:-3}"
dir="${4:-target/replay-vs-broadcast}"
data="$dir/data-$positions-$fences"
mkdir -p "$dir"

# Build once: the test classes for the generator and the peer, then ./quadfence (it builds
# itself when stale) by an untimed replay of a few lines, so that no timed run includes a build.
mvn -B -q -ntp -Dspotless.check.skip=true test-compile
mvn -B -q -ntp dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile="$root/target/peer-classpath.txt"
cp="$root/target/test-classes:$root/target/classes:$(cat "$root/target/peer-classpath.txt")"
# Written anew each time (seconds; the same bytes for the same arguments and generator).
java -cp "$cp" org.quadfence.bench.EventHeavyFiles "$data" "$positions" "$fences"
head -n 100 "$data/fences.jsonl" >"$dir/tiny-fences.jsonl"
head -n 1000 "$data/positions.jsonl" >"$dir/tiny-positions.jsonl"
./quadfence replay --fences "$dir/tiny-fences.jsonl" --positions "$dir/tiny-positions.jsonl" \
    --output "$dir/tiny-events.jsonl" --parallelism 2 >/dev/null

# The JVM flags ./quadfence gives its java (Flink's for Java 17), so that both JVMs start alike.
# ./quadfence replay picks its collector and heap (docs/operations.md, "The replay JVM"); the peer
# takes the JVM's defaults, as a Flink engineer's main would, unless PEER_JAVA_OPTS gives it flags
# (for instance the ones ./quadfence picked, to compare like with like).
opens="--add-exports=java.base/sun.net.util=ALL-UNNAMED --add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED
--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED
--add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED
--add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED
--add-opens=java.base/java.text=ALL-UNNAMED --add-opens=java.base/java.time=ALL-UNNAMED
--add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED
--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED"

# The comparison key of an event line: entity, fence, type, timestamp and group (the visit fields
# after lat, which the peer does not write, are skipped).
keys() {
    sed -E 's/^(\{"entityId":"[^"]*","fenceId":"[^"]*","event":"[A-Z]+","timestamp":[0-9]+),"lon":[^,]*,"lat":[^,}]*(,"enteredAt":-?[0-9]+)?(,"durationMs":[0-9]+)?(,"group":"[^"]*")?.*$/\1\4/' |
        LC_ALL=C sort -S 1G
}

run_quadfence() {
    /usr/bin/time -v -o "$dir/quadfence-$1.time" ./quadfence replay \
        --fences "$data/fences.jsonl" --positions "$data/positions.jsonl" \
        --output "$dir/quadfence-events.jsonl" --dlq "$dir/quadfence-dlq.jsonl" \
        --parallelism 2 >"$dir/quadfence-$1.log" 2>&1 || return
    LC_ALL=C sort -S 1G "$dir/quadfence-events.jsonl" | sha256sum | cut -c1-16 >"$dir/quadfence-$1.sha"
    keys <"$dir/quadfence-events.jsonl" >"$dir/quadfence.keys"
    wc -l <"$dir/quadfence-events.jsonl" >"$dir/quadfence-$1.events"
}

run_peer() {
    # shellcheck disable=SC2086
    /usr/bin/time -v -o "$dir/peer-$1.time" java ${PEER_JAVA_OPTS:-} $opens \
        -Dlog4j2.configurationFile="$root/src/test/resources/log4j2-job-bench.properties" \
        -cp "$cp" org.quadfence.bench.BroadcastStrTreeJob \
        "$data/fences.jsonl" "$data/positions.jsonl" "$dir/peer-events" 2 >"$dir/peer-$1.log" 2>&1 ||
        return
    cat "$dir"/peer-events/events-*.jsonl | keys >"$dir/peer.keys"
    wc -l <"$dir/peer.keys" >"$dir/peer-$1.events"
}

# Prints wall s, CPU-s and peak RSS MiB of a /usr/bin/time -v report.
measure() {
    awk -F': ' '/User time/ {u = $2} /System time/ {s = $2} /Maximum resident/ {r = $2}
        /Elapsed \(wall clock\)/ {n = split($2, t, ":"); w = 0; for (i = 1; i <= n; i++) w = w * 60 + t[i]}
        END {printf "%.2f %.2f %.0f\n", w, u + s, r / 1024}' "$1"
}

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
count="$(wc -l <"$data/positions.jsonl")"
for ((i = 1; i <= pairs; i++)); do
    if ((i % 2)); then order="quadfence peer"; else order="peer quadfence"; fi
    for engine in $order; do
        echo "pair $i: $engine" >&2
        "run_$engine" "$i" || { echo "$engine run $i failed: see $dir/$engine-$i.log" >&2; exit 1; }
    done
    # Both runs of the pair are done: quadfence.keys is this pair's reference.
    right="$(LC_ALL=C comm -12 "$dir/quadfence.keys" "$dir/peer.keys" | wc -l)"
    echo "$right $(wc -l <"$dir/quadfence.keys")" >"$dir/peer-$i.right"
done
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"

row() { # engine, its label, the case
    local wall cpu rss pps events right
    wall="$(for ((i = 1; i <= pairs; i++)); do measure "$dir/$1-$i.time" | cut -d' ' -f1; done | median)"
    cpu="$(for ((i = 1; i <= pairs; i++)); do measure "$dir/$1-$i.time" | cut -d' ' -f2; done | median)"
    rss="$(for ((i = 1; i <= pairs; i++)); do measure "$dir/$1-$i.time" | cut -d' ' -f3; done | median)"
    pps="$(for ((i = 1; i <= pairs; i++)); do
        measure "$dir/$1-$i.time" | awk -v n="$count" '{print n / $1}'
    done | median)"
    events="$(cat "$dir/$1"-*.events | median)"
    if [ "$1" = quadfence ]; then
        right=100
    else
        right="$(cat "$dir"/peer-*.right | awk '{print 100 * $1 / $2}' | median)"
    fi
    printf '| %s | %s | %.1f s | %s | %.1f | %s MiB | %s | %.1f%% |\n' "$3" "$2" "$wall" \
        "$(thousands "$pps")" "$cpu" "$(thousands "$rss")" "$(thousands "$events")" "$right"
}

thousands() { printf "%.0f" "$1" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'; }

echo
echo "commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src pom.xml || echo ' (with uncommitted changes)'),"\
    "$(date -u +%Y-%m-%dT%H:%MZ), nproc $(nproc), $(java -version 2>&1 | head -n 1),"\
    "load average before $load_before, after $load_after; peer JVM flags: ${PEER_JAVA_OPTS:-none}"
echo "$count positions, $(wc -l <"$data/fences.jsonl") fence lines ($fences fences and their changes)," \
    "parallelism 2, medians of $pairs alternating pairs"
echo
echo "| case | engine | wall (JVM start to end) | positions/s | CPU-s | peak RSS | events | events right |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
row peer "broadcast + STRtree" "$count positions, $fences fences, event-heavy"
row quadfence quadfence ""
echo
echo "Each run (wall s, CPU-s, peak RSS MiB):"
for ((i = 1; i <= pairs; i++)); do
    echo "- pair $i: quadfence $(measure "$dir/quadfence-$i.time") (sorted output $(cat "$dir/quadfence-$i.sha")," \
        "$(cat "$dir/quadfence-$i.events") events); peer $(measure "$dir/peer-$i.time")" \
        "($(cat "$dir/peer-$i.events") events, right $(cut -d' ' -f1 "$dir/peer-$i.right"))"
done
