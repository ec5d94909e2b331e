package io.sluice.collect;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads a whole topic from the start (test helper). */
final class KafkaTopics {
    private KafkaTopics() {
    }

    /** Everything in the topic; stops after {@code quietMs} without new records once at least {@code atLeast} arrived. */
    static List<ConsumerRecord<String, String>> readAll(String bootstrap, String topic, int atLeast, long quietMs) {
        Map<String, Object> c = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, "t-" + System.nanoTime(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 16 * 1024 * 1024);
        List<ConsumerRecord<String, String>> out = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            long lastNew = System.nanoTime();
            while (System.nanoTime() < deadline) {
                int got = 0;
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    out.add(r);
                    got++;
                }
                if (got > 0) {
                    lastNew = System.nanoTime();
                } else if (out.size() >= atLeast && (System.nanoTime() - lastNew) / 1_000_000 >= quietMs) {
                    break;
                }
            }
        }
        return out;
    }
}
