package org.quadfence.model;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AttributeMatchTest {

    private final AttributeMatch vans =
            new AttributeMatch(Map.of("fleet", Set.of("north", "south"), "kind", Set.of("van")));

    @Test
    void aPositionMatchesWhenEveryNameHasOneOfItsValues() {
        assertThat(vans.matches(Map.of("fleet", "north", "kind", "van"))).isTrue();
        assertThat(vans.matches(Map.of("fleet", "south", "kind", "van"))).isTrue();
    }

    @Test
    void otherAttributesOfThePositionDoNotMatter() {
        assertThat(vans.matches(Map.of("fleet", "north", "kind", "van", "driver", "ann"))).isTrue();
    }

    @Test
    void aMissingNameOrAValueNotListedDoesNotMatch() {
        assertThat(vans.matches(Map.of("fleet", "north"))).isFalse();
        assertThat(vans.matches(Map.of("fleet", "east", "kind", "van"))).isFalse();
        assertThat(vans.matches(Map.of())).isFalse();
    }

    @Test
    void valuesAndNamesAreComparedExactlyCaseIncluded() {
        assertThat(vans.matches(Map.of("fleet", "North", "kind", "van"))).isFalse();
        assertThat(vans.matches(Map.of("Fleet", "north", "kind", "van"))).isFalse();
        assertThat(vans.matches(Map.of("fleet", "north ", "kind", "van"))).isFalse();
    }

    @Test
    void aPositionWithoutAttributesMatchesNothing() {
        assertThat(vans.matches(null)).isFalse();
        assertThat(new AttributeMatch(Map.of()).matches(null)).isFalse();
    }

    @Test
    void aMatchWithoutNamesMatchesEveryPositionThatHasAttributes() {
        AttributeMatch any = new AttributeMatch(Map.of());
        assertThat(any.matches(Map.of())).isTrue();
        assertThat(any.matches(Map.of("fleet", "north"))).isTrue();
    }

    @Test
    void aNullValueOfThePositionIsNoValue() {
        Map<String, String> attributes = new HashMap<>();
        attributes.put("fleet", null);
        attributes.put("kind", "van");
        assertThat(vans.matches(attributes)).isFalse();
    }

    @Test
    void theAllowedValuesAreASortedUnmodifiableCopy() {
        Set<String> values = new LinkedHashSet<>(List.of("south", "north"));
        Map<String, Set<String>> allowed = new HashMap<>(Map.of("kind", Set.of("van")));
        allowed.put("fleet", values);
        AttributeMatch m = new AttributeMatch(allowed);
        values.add("east");
        allowed.put("driver", Set.of("ann"));

        assertThat(m.allowed().keySet()).containsExactly("fleet", "kind");
        assertThat(m.allowed().get("fleet")).containsExactly("north", "south");
        assertThat(m.matches(Map.of("fleet", "east", "kind", "van"))).isFalse();
        assertThatThrownBy(() -> m.allowed().put("x", Set.of("y")))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> m.allowed().get("fleet").add("west"))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aNameWithoutValuesOrANullIsRefused() {
        assertThatThrownBy(() -> new AttributeMatch(Map.of("fleet", Set.of())))
                .isInstanceOf(IllegalArgumentException.class);
        Map<String, Set<String>> nullName = new HashMap<>();
        nullName.put(null, Set.of("a"));
        assertThatThrownBy(() -> new AttributeMatch(nullName))
                .isInstanceOf(NullPointerException.class);
        Set<String> withNull = new LinkedHashSet<>();
        withNull.add(null);
        assertThatThrownBy(() -> new AttributeMatch(Map.of("fleet", withNull)))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void matchesAreValuesOfTheirNamesAndValues() {
        AttributeMatch same =
                new AttributeMatch(
                        Map.of(
                                "kind",
                                Set.of("van"),
                                "fleet",
                                new LinkedHashSet<>(List.of("south", "north"))));
        assertThat(same).isEqualTo(vans).hasSameHashCodeAs(vans);
        assertThat(new AttributeMatch(Map.of("kind", Set.of("van")))).isNotEqualTo(vans);
        assertThat(vans).hasToString("match {fleet=[north, south], kind=[van]}");
    }
}
