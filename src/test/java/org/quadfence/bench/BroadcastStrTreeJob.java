package org.quadfence.bench;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.datastream.BroadcastStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.filesystem.OutputFileConfig;
import org.apache.flink.streaming.api.functions.sink.filesystem.bucketassigners.BasePathBucketAssigner;

import org.quadfence.bench.PeerRecords.Fence;
import org.quadfence.bench.PeerRecords.Position;

import java.nio.file.Files;
import java.util.Map;

/**
 * The peer of {@code ./quadfence replay} in the event-heavy benchmark (issue 21): the geofencing
 * job a Flink engineer writes in a day without quadfence. Every fence change is broadcast to every
 * subtask ({@code BroadcastState}), where a JTS STRtree over all fences, rebuilt lazily after
 * changes ({@link PeerFenceIndex}), answers each position; positions are keyed by entity and group,
 * and each one's fences are compared with the entity's previous set ({@link PeerMembership}). Both
 * files are read at once and taken in arrival order, without event time: a fence change applies
 * from when it arrives, not from its timestamp, and an entity's positions are taken in the order
 * they come. Tuned as such a job would be: Jackson streaming parse of each line in place ({@link
 * PeerLines}, {@link PeerJson}), object reuse, prepared geometries, no copies of events.
 *
 * <pre>
 * mvn -B -ntp -Pjob-bench test-compile exec:exec -Djob-bench.main=org.quadfence.bench.BroadcastStrTreeJob \
 *     -Djob-bench.args="target/event-heavy/fences.jsonl target/event-heavy/positions.jsonl target/peer-out 2"
 * </pre>
 *
 * Arguments: fences file, positions file, output directory (emptied; events are written to its
 * {@code events-*.jsonl} part files, one or more per subtask, as contract section 4 lines), and the
 * parallelism (default 2). Lines that are not valid records are skipped.
 */
public final class BroadcastStrTreeJob {

    private BroadcastStrTreeJob() {}

    public static void main(String[] argv) throws Exception {
        String[] args = argv.length == 1 ? argv[0].trim().split("\\s+") : argv;
        java.nio.file.Path output = java.nio.file.Path.of(args[2]).toAbsolutePath();
        int parallelism = args.length > 3 ? Integer.parseInt(args[3]) : 2;
        deleteAll(output);
        Configuration conf = new Configuration();
        conf.setString("rest.bind-address", "127.0.0.1");
        conf.setString("jobmanager.bind-host", "127.0.0.1");
        conf.setString("taskmanager.bind-host", "127.0.0.1");
        conf.setString("taskmanager.host", "127.0.0.1");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(conf);
        env.setParallelism(parallelism);
        env.getConfig().enableObjectReuse();

        BroadcastStream<Fence> fences =
                env.fromSource(
                                source(args[0], new PeerJson.Fences(), Fence.class),
                                WatermarkStrategy.noWatermarks(),
                                "fences")
                        .broadcast(PeerMembership.FENCES);
        DataStream<Position> positions =
                env.fromSource(
                        source(args[1], new PeerJson.Positions(), Position.class),
                        WatermarkStrategy.noWatermarks(),
                        "positions");
        positions
                .keyBy(new EntityKey())
                .connect(fences)
                .process(new PeerMembership())
                .name("membership")
                .sinkTo(
                        FileSink.forRowFormat(new Path(output.toUri()), new PeerEvents())
                                .withBucketAssigner(new BasePathBucketAssigner<>())
                                .withOutputFileConfig(
                                        OutputFileConfig.builder()
                                                .withPartPrefix("events")
                                                .withPartSuffix(".jsonl")
                                                .build())
                                .build())
                .name("events");
        JobExecutionResult result = env.execute("broadcast + STRtree");
        Map<String, Object> counts = result.getAllAccumulatorResults();
        System.out.printf(
                "broadcast + STRtree: %s events, %s tree builds (all subtasks), %d ms%n",
                counts.get("events"), counts.get("tree builds"), result.getNetRuntime());
    }

    /** Keys a position by its entity, made unique across groups. */
    static final class EntityKey implements KeySelector<Position, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getKey(Position p) {
            return PeerRecords.key(p.group, p.entityId);
        }
    }

    private static <T> FileSource<T> source(
            String file, PeerLines.Parser<T> parser, Class<T> type) {
        return FileSource.forRecordStreamFormat(
                        new PeerLines<>(parser, type),
                        new Path(java.nio.file.Path.of(file).toAbsolutePath().toUri()))
                .build();
    }

    private static void deleteAll(java.nio.file.Path dir) throws java.io.IOException {
        if (Files.exists(dir)) {
            try (var paths = Files.walk(dir)) {
                for (java.nio.file.Path p :
                        paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
