package org.quadfence.io;

import org.junit.jupiter.api.Test;
import org.quadfence.model.CurrentFences;
import org.quadfence.model.Groups;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The record key and value of an entity's current fences (contract section 9). */
class CurrentFencesCodecTest {

    private final CurrentFencesCodec codec = new CurrentFencesCodec();

    private static String text(byte[] utf8) {
        return new String(utf8, StandardCharsets.UTF_8);
    }

    @Test
    void theKeyNamesTheGroupAndTheEntitySoOneIdInTwoGroupsNeverCollides() {
        CurrentFences a =
                new CurrentFences(Groups.DEFAULT, "truck-17", new String[] {"d"}, 1, 2, 3);
        CurrentFences b = new CurrentFences("fleet \"b\"", "truck-17", new String[] {"d"}, 1, 2, 3);
        assertThat(text(codec.key(a))).isEqualTo("[\"default\",\"truck-17\"]");
        assertThat(text(codec.key(b))).isEqualTo("[\"fleet \\\"b\\\"\",\"truck-17\"]");
    }

    @Test
    void theValueListsTheSortedFencesAndThePositionThatChangedThem() {
        CurrentFences c =
                new CurrentFences(
                        Groups.DEFAULT,
                        "truck-17",
                        new String[] {"depot-1", "zone-9"},
                        1732233600000L,
                        -73.9857,
                        40.7484);
        assertThat(text(codec.encode(c)))
                .isEqualTo(
                        "{\"entityId\":\"truck-17\",\"fenceIds\":[\"depot-1\",\"zone-9\"],"
                                + "\"timestamp\":1732233600000,\"lon\":-73.9857,\"lat\":40.7484}");
        assertThat(c.isTombstone()).isFalse();
    }

    @Test
    void anEmptySetIsATombstoneAndAGroupIsNamedWhenNotDefault() {
        CurrentFences c = new CurrentFences("fleet", "v", new String[0], 5, 0.5, -0.25);
        assertThat(c.isTombstone()).isTrue();
        assertThat(text(codec.encode(c)))
                .isEqualTo(
                        "{\"entityId\":\"v\",\"fenceIds\":[],\"timestamp\":5,\"lon\":0.5,"
                                + "\"lat\":-0.25,\"group\":\"fleet\"}");
    }
}
