package org.quadfence.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MainTest {

    @TempDir Path dir;

    @Test
    void aMissingInputFileIsNamedInTheError() {
        assertThatThrownBy(
                        () ->
                                Main.run(
                                        new String[] {
                                            "replay",
                                            "--fences",
                                            dir.resolve("nope.jsonl").toString(),
                                            "--positions",
                                            dir.resolve("p.jsonl").toString(),
                                            "--output",
                                            dir.resolve("o.jsonl").toString()
                                        }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--fences: no such file")
                .hasMessageContaining("nope.jsonl");
    }

    @Test
    void replayWithoutAnOutputSaysWhatItNeeds() throws Exception {
        Path f = Files.writeString(dir.resolve("f.jsonl"), "");
        assertThatThrownBy(
                        () ->
                                Main.run(
                                        new String[] {
                                            "replay",
                                            "--fences",
                                            f.toString(),
                                            "--positions",
                                            f.toString()
                                        }))
                .hasMessageStartingWith("replay needs --output FILE");
    }

    @Test
    void anUnknownOptionOrCommandIsAClearError() throws Exception {
        Path f = Files.writeString(dir.resolve("f.jsonl"), "");
        assertThatThrownBy(
                        () ->
                                Main.run(
                                        new String[] {
                                            "replay",
                                            "--fences",
                                            f.toString(),
                                            "--positions",
                                            f.toString(),
                                            "--output",
                                            f.toString(),
                                            "--tile-lvl",
                                            "3"
                                        }))
                .hasMessageContaining("unknown option 'tile-lvl'");
        assertThatThrownBy(() -> Main.run(new String[] {"replai"}))
                .hasMessageStartingWith("unknown command 'replai'");
        assertThatThrownBy(() -> Main.run(new String[] {"run", "--delivery"}))
                .hasMessage("option --delivery needs a value");
    }
}
