package org.quadfence.stages;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class KeysTest {

    @Test
    void aKeyGivesBackItsGroupAndIdWhateverTheyHoldInside() {
        String[][] pairs = {
            {"default", "truck-17"}, {"", "x"}, {"1:2", ":3"}, {"東京", "🚚"}, {"g", ""}
        };
        for (String[] p : pairs) {
            String key = Keys.of(p[0], p[1]);
            assertThat(Keys.group(key)).isEqualTo(p[0]);
            assertThat(Keys.id(key)).isEqualTo(p[1]);
        }
    }
}
