/**
 * Kafka plumbing of the service: the topic catalogue ({@link org.dpstream.service.kafka.Topics},
 * {@link org.dpstream.service.kafka.Topic}). A real single-node broker for the demo, the end-to-end
 * benchmark and the {@code *IT} tests, {@code org.dpstream.testkit.EmbeddedKafka}, is in the testkit
 * module, which the service has in test scope only: dpstream-service.jar carries no broker.
 *
 * <p><b>Why the broker runs in-process.</b> It starts in about 2.5 s on two cores (a child JVM
 * adds its own start-up and JIT warm-up and a process to reap if the parent dies), it works
 * unchanged from the shaded {@code dpstream.jar} (checked by starting it, producing zstd-compressed
 * transactional records and consuming them from that jar; the only service file, kafka-clients'
 * ConfigProvider list, is merged by the shade plugin), and a shutdown hook covers interrupted runs. The cost is sharing the JVM: heap, logging and a
 * fatal controller fault, which halts the process as it would a real broker. Kafka's
 * {@code KafkaClusterTestKit} (artifact kafka-test-common-runtime) was not used: it depends on
 * JUnit at runtime and is internal test code, and the examples survey (STYLE-ANCHORS 4.4) lists
 * main code that leans on test kits as a thing to avoid.
 *
 * <p><b>Logging.</b> slf4j-simple is the binding (runtime scope), configured by
 * {@code simplelogger.properties}: INFO for dpstream, WARN for {@code org.apache.kafka} and
 * {@code kafka}, which otherwise print hundreds of lines per start. Any level can be raised with a
 * system property of the same name. reload4j was not chosen because Kafka 4 itself left log4j 1
 * behind, and slf4j-simple needs no configuration language; log4j-core still arrives with
 * kafka-server (its log-level controller uses it) but is not bound to slf4j.
 */
package org.dpstream.service.kafka;
