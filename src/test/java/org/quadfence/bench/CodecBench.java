package org.quadfence.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.quadfence.io.FenceChangeCodec;
import org.quadfence.io.GeofenceEventCodec;
import org.quadfence.io.PositionCodec;
import org.quadfence.model.EventType;
import org.quadfence.model.FenceChange;
import org.quadfence.model.GeofenceEvent;
import org.quadfence.model.Parsed;
import org.quadfence.model.Position;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The codecs on the hot path: parsing a position and writing an event; and parsing a polygon fence,
 * which a large fences file does 100,000s of times at start. Run with {@code java -cp
 * target/test-classes:target/classes:<test classpath> org.openjdk.jmh.Main CodecBench}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class CodecBench {

    private final PositionCodec positions = new PositionCodec();
    private final GeofenceEventCodec events = new GeofenceEventCodec();
    private final byte[] position =
            "{\"entityId\":\"truck-17\",\"lon\":-73.9857,\"lat\":40.7484,\"timestamp\":1732233600000}"
                    .getBytes(StandardCharsets.UTF_8);
    private final byte[] isoPosition =
            "{\"entityId\":\"truck-17\",\"lon\":-73.9857,\"lat\":40.7484,\"timestamp\":\"2024-11-22T00:00:06.346Z\",\"speed\":12.5}"
                    .getBytes(StandardCharsets.UTF_8);
    private final byte[] badPosition =
            "{\"entityId\":\"truck-17\",\"lon\":-73.9857,\"lat\":91.2,\"timestamp\":1732233600000}"
                    .getBytes(StandardCharsets.UTF_8);
    private final GeofenceEvent event =
            new GeofenceEvent(
                    "truck-17",
                    "depot-1",
                    EventType.ENTER,
                    1732233600000L,
                    -73.9857,
                    40.7484,
                    "{\"name\":\"Depot\"}");

    private final FenceChangeCodec fences = new FenceChangeCodec();
    private final byte[] polygonFence = polygon(256);

    /** A polygon fence of {@code n} vertices on a circle, its coordinates at full precision. */
    private static byte[] polygon(int n) {
        StringBuilder s =
                new StringBuilder(
                        "{\"type\":\"Feature\",\"id\":\"zone-1\",\"geometry\":"
                                + "{\"type\":\"Polygon\",\"coordinates\":[[");
        for (int i = 0; i <= n; i++) {
            double a = 2 * Math.PI * (i % n) / n;
            s.append(i == 0 ? "" : ",")
                    .append('[')
                    .append(-73.9857 + 0.01 * Math.cos(a))
                    .append(',')
                    .append(40.7484 + 0.01 * Math.sin(a))
                    .append(']');
        }
        return s.append("]]}}").toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Fails the run if the polygon is a dead letter: its parse would measure the error path. */
    @Setup
    public void polygonIsAFence() {
        Parsed<FenceChange> parsed = fences.parse(null, polygonFence, 0);
        if (!parsed.ok()) {
            throw new IllegalStateException(parsed.deadLetter().toString());
        }
    }

    @Benchmark
    public Parsed<Position> parsePosition() {
        return positions.parse(position);
    }

    @Benchmark
    public Parsed<Position> parsePositionWithIsoTimeAndExtraField() {
        return positions.parse(isoPosition);
    }

    @Benchmark
    public Parsed<Position> parseOutOfRangePosition() {
        return positions.parse(badPosition);
    }

    @Benchmark
    public byte[] encodeEvent() {
        return events.encode(event);
    }

    @Benchmark
    public Parsed<FenceChange> parsePolygonFence() {
        return fences.parse(null, polygonFence, 0);
    }
}
