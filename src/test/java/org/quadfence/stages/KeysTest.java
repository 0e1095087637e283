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

    @Test
    void aKeyInTheDefaultGroupIsMadeAsAnyOther() {
        // Keys are in savepoints: the default group's shortcut must not change them.
        assertThat(Keys.of(new String("default"), "truck-17")).isEqualTo("7:defaulttruck-17");
        assertThat(Keys.of("defaults", "x")).isEqualTo("8:defaultsx");
    }
}
