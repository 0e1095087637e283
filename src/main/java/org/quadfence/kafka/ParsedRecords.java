package org.quadfence.kafka;

import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.quadfence.io.RecordParser;
import org.quadfence.model.Parsed;

/** A Kafka source's records parsed by a {@link RecordParser}: key, value and record timestamp. */
final class ParsedRecords<T> implements KafkaRecordDeserializationSchema<Parsed<T>> {

    private static final long serialVersionUID = 1L;

    private final RecordParser<T> parser;

    ParsedRecords(RecordParser<T> parser) {
        this.parser = parser;
    }

    @Override
    public void open(DeserializationSchema.InitializationContext context) {
        parser.open();
    }

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<Parsed<T>> out) {
        out.collect(parser.parse(record.key(), record.value(), record.timestamp()));
    }

    @Override
    public TypeInformation<Parsed<T>> getProducedType() {
        return parser.getProducedType();
    }
}
