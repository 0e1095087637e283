package org.quadfence.model;

import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Records without a path or a CROSS are written byte for byte as state format 7 wrote them, so
 * savepoints of that format read unchanged (contract 8a) and the serializers stay compatible as is;
 * the layouts of paths and CROSS events (option crossing) are ones format 7 never wrote.
 */
class Format7LayoutTest {

    /** A string of one-byte characters as format 7 wrote it: its header, then its bytes. */
    private static void string(DataOutputSerializer out, String oneByteChars) throws IOException {
        out.writeByte((oneByteChars.length() << 1) + 1);
        out.write(oneByteChars.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
    }

    @Test
    void aMembershipWithoutAPathIsWrittenAsFormatSevenWroteIt() throws IOException {
        DataOutputSerializer want = new DataOutputSerializer(64);
        string(want, "g");
        string(want, "e");
        want.writeLong(7);
        want.writeDouble(1.5);
        want.writeDouble(-2.5);
        want.writeInt(1);
        string(want, "a");
        want.writeInt(0);
        DataOutputSerializer have = new DataOutputSerializer(64);
        MembershipSerializer.INSTANCE.serialize(
                new Membership("g", "e", 7, 1.5, -2.5, new String[] {"a"}), have);
        assertThat(have.getCopyOfBuffer()).isEqualTo(want.getCopyOfBuffer());
    }

    @Test
    void anEnterExitOrDwellIsWrittenAsFormatSevenWroteIt() throws IOException {
        for (EventType type : new EventType[] {EventType.ENTER, EventType.EXIT, EventType.DWELL}) {
            DataOutputSerializer want = new DataOutputSerializer(64);
            string(want, "e");
            string(want, "f");
            want.writeByte(type.ordinal());
            want.writeLong(7);
            want.writeDouble(1.5);
            want.writeDouble(-2.5);
            want.writeByte(0);
            string(want, "g");
            DataOutputSerializer have = new DataOutputSerializer(64);
            GeofenceEventSerializer.INSTANCE.serialize(
                    new GeofenceEvent("e", "f", type, 7, 1.5, -2.5, null, "g"), have);
            assertThat(have.getCopyOfBuffer()).as(type.name()).isEqualTo(want.getCopyOfBuffer());
        }
    }

    @Test
    void aPathAnswerReadsBackAfterAFormatSevenMembershipInOneStream() throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        Membership plain = new Membership("g", "e", 7, 1.5, -2.5, new String[] {"a"});
        Membership path =
                new Membership(
                        "g",
                        "e",
                        8,
                        1.5,
                        -2.5,
                        new String[0],
                        new String[] {"n"},
                        new Waypoint(7, 1, 2),
                        new String[] {"gate"},
                        new double[] {0.25});
        MembershipSerializer.INSTANCE.serialize(plain, out);
        MembershipSerializer.INSTANCE.serialize(path, out);
        MembershipSerializer.INSTANCE.serialize(plain, out);
        DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
        assertThat(MembershipSerializer.INSTANCE.deserialize(in).pathFrom()).isNull();
        Membership back = MembershipSerializer.INSTANCE.deserialize(in);
        assertThat(back.pathFrom()).isEqualTo(new Waypoint(7, 1, 2));
        assertThat(back.nearIds()).containsExactly("n");
        assertThat(back.pathIds()).containsExactly("gate");
        assertThat(back.pathAt()).containsExactly(0.25);
        assertThat(MembershipSerializer.INSTANCE.deserialize(in).fenceIds()).containsExactly("a");
        assertThat(in.available()).isZero();
    }
}
