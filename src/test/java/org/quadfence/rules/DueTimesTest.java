package org.quadfence.rules;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DueTimesTest {

    private static final long LAST = 253_402_300_799_999L;

    @Test
    void aDwellIsDueDwellMsAfterTheEnterAndAnExpiryTtlAfterTheLatestPosition() {
        DueTimes times = new DueTimes(100, 5000);
        assertThat(times.dwell(10)).isEqualTo(110);
        assertThat(times.expiry(10)).isEqualTo(5010);
    }

    @Test
    void anOptionThatIsOffMakesNothingDue() {
        DueTimes off = new DueTimes(0, 0);
        assertThat(off.dwell(10)).isEqualTo(DueTimes.NONE);
        assertThat(off.expiry(10)).isEqualTo(DueTimes.NONE);
    }

    @Test
    void timesFromTheEndOfTheRangeDoNotOverflow() {
        assertThat(new DueTimes(LAST, LAST).dwell(LAST)).isEqualTo(2 * LAST);
        assertThat(new DueTimes(Long.MAX_VALUE, Long.MAX_VALUE).expiry(LAST))
                .isEqualTo(Long.MAX_VALUE);
        assertThat(DueTimes.plus(Long.MAX_VALUE - 1, 2)).isEqualTo(Long.MAX_VALUE);
    }
}
