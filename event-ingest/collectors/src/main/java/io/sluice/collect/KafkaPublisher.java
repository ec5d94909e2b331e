package io.sluice.collect;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.sluice.kafka.security.KafkaClientSecurity;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A Kafka producer for the collectors with checkpoint semantics: {@link #send} is asynchronous,
 * {@link #checkpoint()} waits until everything sent so far is acknowledged and fails if anything
 * was not, so callers save their offsets only after a successful checkpoint.
 */
final class KafkaPublisher implements AutoCloseable {

    private final KafkaProducer<byte[], byte[]> producer;
    private final AtomicReference<Exception> firstError = new AtomicReference<>();
    private final AtomicLong acked = new AtomicLong();

    KafkaPublisher(String bootstrap, String clientId, Map<String, String> overrides) {
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024);
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 16 * 1024 * 1024);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000);
        p.putAll(overrides);
        p.putAll(KafkaClientSecurity.fromProcess()); // SASL/SSL from the environment or a properties file
        this.producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    void send(String topic, byte[] key, byte[] value) {
        Exception e = firstError.get();
        if (e != null) {
            throw new PublishException("an earlier send failed", e);
        }
        producer.send(new ProducerRecord<>(topic, key, value), (md, ex) -> {
            if (ex != null) {
                firstError.compareAndSet(null, ex);
            } else {
                acked.incrementAndGet();
            }
        });
    }

    /** Blocks until every record sent so far is acknowledged; throws if any failed. */
    void checkpoint() {
        producer.flush();
        Exception e = firstError.get();
        if (e != null) {
            throw new PublishException("Kafka did not acknowledge every record", e);
        }
    }

    long acknowledged() {
        return acked.get();
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }

    static final class PublishException extends RuntimeException {
        PublishException(String message, Throwable cause) {
            super(message + ": " + cause, cause);
        }
    }
}
