package org.quadfence.geo;

import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import org.junit.jupiter.api.Test;
import org.quadfence.testing.Country;
import org.quadfence.tiles.ShapeCut;
import org.quadfence.tiles.TileGrid;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

/** The pieces tiles keep are Flink POJOs that need no Kryo and survive a round trip. */
class PieceFlinkTypesTest {

    @Test
    void polygonAndCirclePiecesArePojosWithoutKryo() throws IOException {
        Polygon country = Country.polygon(2_000, -60, -10, 5, 3);
        int pieces = 0;
        for (ShapeCut cut : new TileGrid(8).cut(country, 500)) {
            if (!cut.covered()) {
                PolygonPiece piece = roundTrip((PolygonPiece) cut.piece());
                double x = (piece.minX() + piece.maxX()) / 2;
                double y = (piece.minY() + piece.maxY()) / 2;
                assertThat(piece.contains(x, y)).isEqualTo(country.contains(x, y));
                pieces++;
            }
        }
        assertThat(pieces).isPositive();
        roundTrip(CirclePiece.of(new Circle(180, -45, 1500), new Box(-180, -45.1, -179.9, -44.9)));
    }

    @SuppressWarnings("unchecked")
    private static <T> T roundTrip(T value) throws IOException {
        TypeInformation<T> info = (TypeInformation<T>) TypeInformation.of(value.getClass());
        assertThat(info).isInstanceOf(PojoTypeInfo.class);
        SerializerConfigImpl config = new SerializerConfigImpl();
        config.setGenericTypes(false);
        TypeSerializer<T> s = info.createSerializer(config);
        DataOutputSerializer out = new DataOutputSerializer(256);
        s.serialize(value, out);
        T copy = s.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
        assertThat(copy).isEqualTo(value).isNotSameAs(value);
        return copy;
    }
}
