/**
 * The client of tuner-service's submission API: the HTTP call ({@link
 * io.sluice.submit.client.TunerClient}, short timeouts and a circuit breaker, fail-open), its
 * settings, and the validation of the answer ({@link io.sluice.submit.client.ResponseParser}).
 *
 * <p><b>JSON.</b> Answers are bound with Jackson databind to the contract records of {@code
 * sluice-contracts} ({@code SubmissionAnswer}), the same records the service's contract is checked
 * against, rather than walked field by field. The Jackson used is the client's own, relocated into
 * {@code io.sluice.shaded.jackson} in the {@code -all} jar, not the one Spark puts on the driver's
 * class path: this code runs in three places whose Jackson differs or is absent. {@code
 * sluice-submit} runs on a gateway before {@code spark-submit}, with no Spark jars on its class
 * path; the driver plugin runs inside Spark's driver, whose {@code jars/} carry jackson-databind
 * 2.15.2 in Spark 3.5.7 and 2.18.2 in Spark 4.0.1; the Kyuubi advisor runs inside Kyuubi's server
 * with whatever Jackson that ships. A relocated copy gives every host one known version (the
 * build's {@code jackson-bom}) and never shadows or is shadowed by the host's (the user's job may
 * bring yet another), at the cost of about 2 MB in the jar. Using Spark's copy would tie the parser
 * to two Jackson lines at once and leave {@code sluice-submit} without any.
 */
package io.sluice.submit.client;
