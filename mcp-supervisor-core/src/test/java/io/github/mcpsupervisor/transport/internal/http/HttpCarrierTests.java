package io.github.mcpsupervisor.transport.internal.http;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException.Kind;
import io.github.mcpsupervisor.transport.StreamableHttpServerDefinition;
import io.github.mcpsupervisor.transport.internal.GenerationConnection;
import io.github.mcpsupervisor.transport.internal.GenerationLife;
import io.github.mcpsupervisor.transport.internal.RevisionClient.Refusal;
import io.github.mcpsupervisor.transport.internal.ScriptedRevisionClient;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link HttpCarrier}: what ends a generation of a Streamable HTTP server, and
 * how a failed start is told, read through a scripted binding as either revision's SDK
 * reports its failures.
 */
class HttpCarrierTests {

	// never sent through: the carriers' generation clients only wrap it
	private static final HttpClient HTTP = HttpClient.newBuilder().build();

	private static final String MASKED_URL = "http://127.0.0.1:1/mcp?api_key=******";

	private final List<String> events = new CopyOnWriteArrayList<>();

	private final ScriptedRevisionClient client = new ScriptedRevisionClient(this.events);

	private final StreamableHttpServerDefinition definition = new StreamableHttpServerDefinition("remote",
			URI.create("http://127.0.0.1:1/mcp?api_key=secret"), Map.of(), Duration.ofSeconds(1),
			Duration.ofSeconds(1));

	private final GenerationLife life = new GenerationLife("remote", 1, "connection closed", this.definition::redact);

	@Test
	void aServerErrorOrARefusalOfTheCredentialsEndsTheGenerationNamingTheMaskedUrl() {
		assertThat(lossAfter(new Status(503), HttpAuthorization.NONE)).isEqualTo("HTTP 503 from " + MASKED_URL);
		assertThat(lossAfter(new Status(401), HttpAuthorization.NONE)).isEqualTo("HTTP 401 from " + MASKED_URL);
		assertThat(lossAfter(new Status(403), HttpAuthorization.NONE)).isEqualTo("HTTP 403 from " + MASKED_URL);
	}

	@Test
	void anotherStatusFailsItsCallOnly() {
		assertThat(lossAfter(new Status(404), HttpAuthorization.NONE)).isNull();
		assertThat(lossAfter(new Status(429), HttpAuthorization.NONE)).isNull();
	}

	@Test
	void aScopeTheTokenLacksFailsItsCallOnly() {
		assertThat(lossAfter(new Status(403), new TokenAuthorization())).isNull();
		assertThat(lossAfter(new Status(401), new TokenAuthorization())).isEqualTo("HTTP 401 from " + MASKED_URL);
	}

	@Test
	void aLostSessionOrABrokenConnectionEndsTheGenerationAndAMalformedAnswerDoesNot() {
		assertThat(lossAfter(new Read(HttpBinding.Failure.SESSION_LOST), HttpAuthorization.NONE))
			.isEqualTo(HttpCarrier.SESSION_NOT_FOUND);
		assertThat(lossAfter(new Read(HttpBinding.Failure.BROKEN), HttpAuthorization.NONE))
			.isEqualTo("transport failure: reset by api_key=******");
		assertThat(lossAfter(new Read(HttpBinding.Failure.MALFORMED_ANSWER), HttpAuthorization.NONE)).isNull();
		assertThat(lossAfter(new Read(HttpBinding.Failure.NONE), HttpAuthorization.NONE)).isNull();
	}

	@Test
	void aNeededAuthorizationEndsTheGeneration() {
		assertThat(lossAfter(new IllegalStateException(new AuthorizationRequiredException("authorize it")),
				HttpAuthorization.NONE))
			.isEqualTo("the server needs an authorization");
	}

	@Test
	void aStreamThatBreaksOtherwiseThanByARuntimeFailureEndsTheGeneration() {
		GenerationConnection connection = connection(HttpAuthorization.NONE);
		carrier(HttpAuthorization.NONE).streamFailed(new IOException("stream reset by api_key=secret"));
		assertThat(connection.lossReason()).isEqualTo("transport failure: stream reset by api_key=******");
	}

	@Test
	void aRefusalOfTheCredentialsAtTheStartIsAConfigurationError() {
		this.client.opening = () -> {
			throw new Status(401);
		};
		assertThatExceptionOfType(McpConnectException.class).isThrownBy(connection(HttpAuthorization.NONE)::open)
			.satisfies((ex) -> assertThat(ex.getKind()).isEqualTo(Kind.CONFIGURATION))
			.withMessage("HTTP 401 from " + MASKED_URL + ": the server refuses these credentials (check the headers)");
		assertThat(this.events).containsExactly("client closed");
	}

	@Test
	void aServerThatSpeaksAnotherRevisionIsAConfigurationErrorInItsOwnWordsOrAsAConnectionFailure() {
		this.client.opening = () -> {
			throw new IllegalStateException("refused by api_key=secret");
		};
		this.client.refusing = (ex) -> new Refusal("speaks only 2027-01-01");
		assertThatExceptionOfType(McpConnectException.class).isThrownBy(connection(HttpAuthorization.NONE)::open)
			.satisfies((ex) -> assertThat(ex.getKind()).isEqualTo(Kind.CONFIGURATION))
			.withMessage("speaks only 2027-01-01");
		this.client.refusing = (ex) -> new Refusal(null);
		assertThatExceptionOfType(McpConnectException.class).isThrownBy(connection(HttpAuthorization.NONE)::open)
			.satisfies((ex) -> assertThat(ex.getKind()).isEqualTo(Kind.CONFIGURATION))
			.withMessage("cannot connect to " + MASKED_URL + ": refused by api_key=******");
	}

	@Test
	void anyOtherFailedStartIsTransient() {
		this.client.opening = () -> {
			throw new IllegalStateException("Connection refused");
		};
		assertThatExceptionOfType(McpConnectException.class).isThrownBy(connection(HttpAuthorization.NONE)::open)
			.satisfies((ex) -> assertThat(ex.getKind()).isEqualTo(Kind.TRANSIENT))
			.withMessage("cannot connect to " + MASKED_URL + ": Connection refused");
	}

	@Test
	void aClientThatCannotBeBuiltIsAConfigurationError() {
		HttpCarrier carrier = new HttpCarrier(this.life, this.definition, HttpAuthorization.NONE, HTTP,
				new ScriptedBinding() {

					@Override
					public void connect(GenerationHttpClient httpClient) {
						throw new IllegalArgumentException("customizer bug");
					}

				});
		assertThatExceptionOfType(McpConnectException.class).isThrownBy(carrier::open)
			.satisfies((ex) -> assertThat(ex.getKind()).isEqualTo(Kind.CONFIGURATION))
			.withMessage("building the MCP client failed: customizer bug");
	}

	private @Nullable String lossAfter(RuntimeException failure, HttpAuthorization authorization) {
		GenerationLife life = new GenerationLife("remote", 1, "connection closed", this.definition::redact);
		HttpCarrier carrier = new HttpCarrier(life, this.definition, authorization, HTTP, new ScriptedBinding());
		carrier.callFailed(failure);
		return life.isLost() ? life.lossReason() : null;
	}

	private GenerationConnection connection(HttpAuthorization authorization) {
		return new GenerationConnection(this.life, carrier(authorization), this.client);
	}

	private HttpCarrier carrier(HttpAuthorization authorization) {
		return new HttpCarrier(this.life, this.definition, authorization, HTTP, new ScriptedBinding());
	}

	/** A failure whose HTTP status the binding reads. */
	private static final class Status extends IllegalStateException {

		private static final long serialVersionUID = 1L;

		private final int status;

		Status(int status) {
			super("HTTP " + status);
			this.status = status;
		}

	}

	/** A failure that the binding reads as it says. */
	private static final class Read extends IllegalStateException {

		private static final long serialVersionUID = 1L;

		private final HttpBinding.Failure failure;

		Read(HttpBinding.Failure failure) {
			super("reset by api_key=secret");
			this.failure = failure;
		}

	}

	private class ScriptedBinding implements HttpBinding {

		@Override
		public ScriptedRevisionClient client() {
			return HttpCarrierTests.this.client;
		}

		@Override
		public void connect(GenerationHttpClient httpClient) {
		}

		@Override
		public @Nullable Integer status(Throwable ex) {
			return (ex instanceof Status status) ? status.status : null;
		}

		@Override
		public Failure failure(Throwable ex) {
			return (ex instanceof Read read) ? read.failure : Failure.NONE;
		}

	}

	private static final class TokenAuthorization implements HttpAuthorization {

		@Override
		public @Nullable String authorization() {
			return "Bearer token";
		}

		@Override
		public boolean refused(int status, HttpHeaders headers, @Nullable String sent) {
			return false;
		}

		@Override
		public boolean obtainsTokens() {
			return true;
		}

	}

}
