package org.quadfence.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JVM that {@code ./quadfence replay} starts (docs/operations.md, "The replay JVM"): the
 * throughput collector, a heap of 12 x the fences file + 1/4 x the positions file (at least 1 GiB,
 * at most a quarter of the memory), starting at what the inputs need (at least 64 MiB), on huge
 * pages where the kernel gives them on request.
 */
class ReplayJvmITCase {

    private static final long MIB = 1 << 20;
    private static final Path TRANSPARENT_HUGE_PAGES =
            Path.of("/sys/kernel/mm/transparent_hugepage/enabled");

    @TempDir Path dir;

    @Test
    void aLargeFencesFileGetsTwelveTimesItsSizeOfHeapFromTheStart() throws Exception {
        Flags flags = replayJvm(sparse("fences.jsonl", 100 * MIB), sparse("positions", 400 * MIB));
        long need = 12 * 100 + 400 / 4;
        long heap = Math.min(need, quarterOfMemoryMib());
        assertThat(flags.maxHeapMib()).isEqualTo(heap);
        assertThat(flags.initialHeapMib()).isEqualTo(Math.min(need, heap));
        assertThat(flags.all()).contains("-XX:+UseParallelGC");
    }

    @Test
    void smallInputsGetOneGibOfHeapAndStartSmall() throws Exception {
        Flags flags = replayJvm(sparse("fences.jsonl", 10 * MIB), dir.resolve("no-positions"));
        assertThat(flags.maxHeapMib()).isEqualTo(Math.min(1024, quarterOfMemoryMib()));
        assertThat(flags.initialHeapMib()).isEqualTo(12 * 10);
    }

    @Test
    void theHeapTakesHugePagesWhereTheKernelGivesThemOnRequest() throws Exception {
        Flags flags = replayJvm(sparse("fences.jsonl", MIB), dir.resolve("no-positions"));
        String offered =
                Files.exists(TRANSPARENT_HUGE_PAGES)
                        ? Files.readString(TRANSPARENT_HUGE_PAGES)
                        : "";
        if (offered.contains("[madvise]") || offered.contains("[always]")) {
            assertThat(flags.all()).contains("-XX:+UseTransparentHugePages");
        } else {
            assertThat(flags.all()).doesNotContain("UseTransparentHugePages");
        }
    }

    @Test
    void javaOptionsGivenToTheLauncherWin() throws Exception {
        Flags flags =
                replayJvm(
                        sparse("fences.jsonl", 100 * MIB),
                        dir.resolve("no-positions"),
                        "-Xms100m -Xmx700m");
        assertThat(flags.maxHeapMib()).isEqualTo(700);
        assertThat(flags.initialHeapMib()).isEqualTo(100);
    }

    /** The JVM's flags as it printed them, in MiB where they are sizes. */
    private record Flags(String all) {
        long initialHeapMib() {
            return size("InitialHeapSize");
        }

        long maxHeapMib() {
            return size("MaxHeapSize");
        }

        private long size(String flag) {
            Matcher m = Pattern.compile("-XX:" + flag + "=(\\d+)").matcher(all);
            assertThat(m.find()).as(all).isTrue();
            return Long.parseLong(m.group(1)) / MIB;
        }
    }

    private Flags replayJvm(Path fences, Path positions, String... javaOptions)
            throws IOException, InterruptedException {
        // The positions file need not exist: the launcher sizes the JVM, which prints its flags,
        // and the replay then stops at the missing file.
        ProcessBuilder pb =
                new ProcessBuilder(
                                List.of(
                                        "./quadfence",
                                        "replay",
                                        "--fences",
                                        fences.toString(),
                                        "--positions",
                                        positions.toString(),
                                        "--output",
                                        dir.resolve("events.jsonl").toString()))
                        .redirectErrorStream(true);
        pb.environment()
                .put(
                        "QUADFENCE_JAVA_OPTS",
                        "-XX:+PrintCommandLineFlags " + String.join(" ", javaOptions));
        Process p = pb.start();
        String printed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
        return new Flags(printed);
    }

    /** A file of {@code bytes} zeros that takes no room on disk. */
    private Path sparse(String name, long bytes) throws IOException {
        Path file = dir.resolve(name);
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(bytes);
        }
        assertThat(Files.size(file)).isEqualTo(bytes);
        return file;
    }

    private static long quarterOfMemoryMib() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
            if (line.startsWith("MemTotal:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) / 4096;
            }
        }
        throw new AssertionError("no MemTotal in /proc/meminfo");
    }
}
