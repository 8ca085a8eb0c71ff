package io.github.mcpsupervisor.transport.internal.modern;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.github.mcpsupervisor.transport.StreamableHttpServerDefinition;
import io.github.mcpsupervisor.transport.internal.Revisions;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link NegotiatedRevision}: kept for a server's configuration, never with its
 * values in clear.
 */
class NegotiatedRevisionTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	@Test
	void theFingerprintOfAStdioServerIsThatOfItsCommandArgumentsDirectoryAndEnvironment() {
		String fingerprint = NegotiatedRevision
			.fingerprint(stdio("node", List.of("server.js"), Map.of("A", "1"), null));
		assertThat(fingerprint).matches("[0-9a-f]{64}")
			.isEqualTo(NegotiatedRevision.fingerprint(stdio("node", List.of("server.js"), Map.of("A", "1"), null)));
		assertThat(Stream
			.of(stdio("deno", List.of("server.js"), Map.of("A", "1"), null),
					stdio("node", List.of("server.js", "--flag"), Map.of("A", "1"), null),
					stdio("node", List.of("server.js"), Map.of("A", "2"), null),
					stdio("node", List.of("server.js"), Map.of("A", "1", "B", "1"), null),
					stdio("node", List.of("server.js"), Map.of("A", "1"), Path.of("/srv")),
					new StdioServerDefinition("s", "node", List.of("server.js"), Map.of("A", "1"), null, TIMEOUT,
							TIMEOUT, TIMEOUT, List.of("AWS_*")))
			.map(NegotiatedRevision::fingerprint)).doesNotContain(fingerprint).doesNotHaveDuplicates();
		// the parts are told apart: an argument is not the command's
		assertThat(NegotiatedRevision.fingerprint(stdio("node", List.of("a"), Map.of(), null)))
			.isNotEqualTo(NegotiatedRevision.fingerprint(stdio("nodea", List.of(), Map.of(), null)));
	}

	@Test
	void theFingerprintOfAnHttpServerIsThatOfItsUrlAndHeaders() {
		String fingerprint = NegotiatedRevision.fingerprint(http("http://127.0.0.1:1/mcp", Map.of()));
		assertThat(NegotiatedRevision.fingerprint(http("http://127.0.0.1:1/mcp", Map.of()))).isEqualTo(fingerprint);
		assertThat(NegotiatedRevision.fingerprint(http("http://127.0.0.1:2/mcp", Map.of()))).isNotEqualTo(fingerprint);
		assertThat(NegotiatedRevision.fingerprint(http("http://127.0.0.1:1/mcp", Map.of("X-Tenant", "a"))))
			.isNotEqualTo(fingerprint);
	}

	@Test
	void theKeptFileHoldsNoValueOfTheConfiguration(@TempDir Path runtime) throws Exception {
		StdioServerDefinition server = stdio("node", List.of("server.js", "--api-key=arg-secret"),
				Map.of("TOKEN", "env-secret"), null);
		NegotiatedRevision kept = NegotiatedRevision.keptIn(runtime, server);
		assertThat(kept.get()).isNull();
		kept.set(Revisions.V2025_11_25);
		List<Path> files;
		try (Stream<Path> listed = Files.list(runtime)) {
			files = listed.toList();
		}
		assertThat(files).singleElement()
			.satisfies((file) -> assertThat(file.getFileName().toString()).matches("[0-9a-f]{64}\\.revision"));
		assertThat(Files.readString(files.get(0))).contains("revision=2025-11-25")
			.contains("server=s")
			.doesNotContain("secret")
			.doesNotContain("node");
		assertThat(NegotiatedRevision.keptIn(runtime, server).get()).isEqualTo(Revisions.V2025_11_25);
	}

	@Test
	void withoutARuntimeDirectoryTheRevisionIsKeptInMemoryOnly() {
		StdioServerDefinition server = stdio("node", List.of(), Map.of(), null);
		NegotiatedRevision kept = NegotiatedRevision.keptIn(null, server);
		kept.set(Revisions.V2025_11_25);
		assertThat(kept.get()).isEqualTo(Revisions.V2025_11_25);
		assertThat(NegotiatedRevision.keptIn(null, server).get()).isNull();
	}

	private static StdioServerDefinition stdio(String command, List<String> args, Map<String, String> env,
			@Nullable Path workingDirectory) {
		return new StdioServerDefinition("s", command, args, env, workingDirectory, TIMEOUT, TIMEOUT, TIMEOUT);
	}

	private static StreamableHttpServerDefinition http(String url, Map<String, String> headers) {
		return new StreamableHttpServerDefinition("s", URI.create(url), headers, TIMEOUT, TIMEOUT);
	}

}
