#!/bin/sh
# Writes a sample's fences.jsonl, then its positions.jsonl, to Kafka with the console producer:
#   feed-sample.sh BOOTSTRAP_SERVERS SAMPLE_DIR
# Records are keyed by fenceId and entityId (a compacted topic refuses records without a key;
# the job dead-letters a fence whose key is not its id). A fence change without a timestamp
# holds from its record's Kafka timestamp, which the console producer sets to now; the
# samples mean "from the beginning of time", so such lines get "timestamp":0 here.
# POSIX sh and sed -E only (the apache/kafka image is Alpine/BusyBox).
set -eu
bootstrap="$1"
dir="$2"
tab=$(printf '\t')
produce() {
    /opt/kafka/bin/kafka-console-producer.sh --bootstrap-server "$bootstrap" --topic "$1" \
        --property parse.key=true --property "key.separator=$tab"
}
keyed() {
    # "KEY<TAB>LINE" for lines whose field $1 is a plain JSON string; others are dropped.
    sed -n -E "s/^(.*\"$1\" *: *\"([^\"\\\\]*)\".*)\$/\\2$tab\\1/p"
}
sed -E '/"timestamp"/!s/^\{/{"timestamp":0,/' "$dir/fences.jsonl" | keyed fenceId | produce fences
echo "fences written"
keyed entityId < "$dir/positions.jsonl" | produce positions
echo "positions written"
