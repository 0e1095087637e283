package org.quadfence.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What the running job says about itself: its state and last checkpoint, from the REST API of the
 * local Flink web UI, and the lag of its positions source, from the offsets it commits to Kafka at
 * every checkpoint.
 */
final class JobMonitor implements AutoCloseable {

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ObjectMapper json = new ObjectMapper();
    private final String jobUrl;
    private final Admin admin;
    private final String group;
    private final String positionsTopic;
    private final int partitions;
    private long failedAtStart = -1;

    /**
     * @param restUrl the web UI's address, such as http://127.0.0.1:8081
     * @param jobId the job's id in hex
     * @param group the job's Kafka consumer group
     * @param partitions the number of partitions of {@code positionsTopic}
     */
    JobMonitor(
            String restUrl,
            String jobId,
            String bootstrapServers,
            String group,
            String positionsTopic,
            int partitions) {
        this.jobUrl = restUrl + "/jobs/" + jobId;
        this.admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers));
        this.group = group;
        this.positionsTopic = positionsTopic;
        this.partitions = partitions;
    }

    /** The job's state (RUNNING, RESTARTING, ...), or "unknown" when the REST API is silent. */
    String state() {
        JsonNode job = get("");
        return job == null ? "unknown" : job.path("state").asText("unknown");
    }

    /**
     * The last completed checkpoint, such as "#12, 0.8 s ago", with the failures since the first
     * completed one counted; "none yet" before the first.
     */
    String lastCheckpoint() {
        JsonNode c = get("/checkpoints");
        if (c == null) {
            return "unknown";
        }
        JsonNode latest = c.path("latest").path("completed");
        long failed = c.path("counts").path("failed").asLong();
        // Checkpoints triggered while the tasks are still starting fail; that is no news.
        if (failedAtStart < 0 && latest.has("id")) {
            failedAtStart = failed;
        }
        failed -= Math.max(0, failedAtStart);
        String text = "none yet";
        if (latest.has("id")) {
            double ago =
                    (System.currentTimeMillis() - latest.path("latest_ack_timestamp").asLong())
                            / 1000.0;
            text =
                    String.format(
                            Locale.ROOT,
                            "#%d, %.1f s ago",
                            latest.path("id").asLong(),
                            Math.max(0, ago));
        }
        return failedAtStart >= 0 && failed > 0 ? text + " (" + failed + " failed)" : text;
    }

    /**
     * Positions in Kafka that the job has not yet committed as read, -1 when unknown. Offsets are
     * committed at checkpoints, so about a checkpoint interval's worth is normal.
     */
    long lag() {
        try {
            Map<TopicPartition, OffsetAndMetadata> committed =
                    admin.listConsumerGroupOffsets(group)
                            .partitionsToOffsetAndMetadata()
                            .get(2, TimeUnit.SECONDS);
            Map<TopicPartition, OffsetSpec> ends = new HashMap<>();
            for (int p = 0; p < partitions; p++) {
                ends.put(new TopicPartition(positionsTopic, p), OffsetSpec.latest());
            }
            long lag = 0;
            for (Map.Entry<TopicPartition, ListOffsetsResultInfo> e :
                    admin.listOffsets(ends).all().get(2, TimeUnit.SECONDS).entrySet()) {
                OffsetAndMetadata done = committed.get(e.getKey());
                lag += e.getValue().offset() - (done == null ? 0 : done.offset());
            }
            return lag;
        } catch (Exception unknown) {
            return -1;
        }
    }

    private JsonNode get(String path) {
        try {
            HttpResponse<String> r =
                    http.send(
                            HttpRequest.newBuilder(URI.create(jobUrl + path))
                                    .timeout(Duration.ofSeconds(5))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? json.readTree(r.body()) : null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (Exception unknown) {
            return null;
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(2));
    }
}
