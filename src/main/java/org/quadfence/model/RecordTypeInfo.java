package org.quadfence.model;

import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

import java.util.Objects;

/**
 * The type information of a record that Flink moves with a serializer of its own (one written for
 * the record, instead of Flink's reflective POJO serializer): Flink sees the record as one opaque
 * field.
 *
 * @param <T> the record
 */
public final class RecordTypeInfo<T> extends TypeInformation<T> {

    private static final long serialVersionUID = 1L;

    private final Class<T> type;
    private final TypeSerializer<T> serializer;
    private final boolean key;

    /**
     * @param type the record's class
     * @param serializer a stateless serializer of it (shared by all users)
     * @param key whether the record may key a stream (its equals and hashCode are by value)
     */
    public RecordTypeInfo(Class<T> type, TypeSerializer<T> serializer, boolean key) {
        this.type = type;
        this.serializer = serializer;
        this.key = key;
    }

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<T> getTypeClass() {
        return type;
    }

    @Override
    public boolean isKeyType() {
        return key;
    }

    @Override
    public TypeSerializer<T> createSerializer(SerializerConfig config) {
        return serializer;
    }

    @Override
    public String toString() {
        return type.getSimpleName() + "<" + serializer.getClass().getSimpleName() + ">";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RecordTypeInfo<?> other
                && other.canEqual(this)
                && type == other.type
                && key == other.key
                && serializer.equals(other.serializer);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, serializer, key);
    }

    @Override
    public boolean canEqual(Object o) {
        return o instanceof RecordTypeInfo;
    }
}
