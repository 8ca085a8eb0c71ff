package io.github.mcpsupervisor.transport.internal.http.authorization;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import com.sun.net.httpserver.HttpServer;
import io.github.mcpsupervisor.authorization.InMemoryMcpAuthorizationStore;
import io.github.mcpsupervisor.authorization.McpAuthorizationStore;
import io.github.mcpsupervisor.authorization.McpAuthorizationStore.DynamicClient;
import io.github.mcpsupervisor.transport.internal.http.authorization.ClientDiscovery.Discovered;
import io.modelcontextprotocol.json.McpJsonDefaults;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link ClientDiscovery} against an authorization server's documents and
 * registration endpoint served on loopback.
 */
class ClientDiscoveryTests {

	private static final URI REDIRECT = URI.create("http://127.0.0.1:8080/authorized/mcp");

	private final Map<String, String> documents = new ConcurrentHashMap<>();

	private final List<String> registrations = new CopyOnWriteArrayList<>();

	private volatile String registered = "{\"client_id\":\"dynamic-1\"}";

	private HttpServer server;

	private String base;

	@BeforeEach
	void serve() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/", (exchange) -> {
			String path = exchange.getRequestURI().getRawPath();
			String body;
			int status = 200;
			if (path.equals("/register")) {
				this.registrations.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
				body = this.registered;
				status = 201;
			}
			else {
				body = this.documents.get(path);
				if (body == null) {
					body = "{}";
					status = 404;
				}
			}
			byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().add("Content-Type", "application/json");
			exchange.sendResponseHeaders(status, bytes.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(bytes);
			}
		});
		this.server.start();
		this.base = "http://127.0.0.1:" + this.server.getAddress().getPort();
		this.documents.put("/.well-known/oauth-protected-resource/mcp", "{\"resource\":\"" + this.base
				+ "/mcp\",\"authorization_servers\":[\"" + this.base + "/as\"],\"scopes_supported\":[\"mcp:read\"]}");
	}

	@AfterEach
	void stop() {
		this.server.stop(0);
	}

	private void authorizationServer(String extra) {
		this.documents.put("/.well-known/oauth-authorization-server/as",
				"{\"issuer\":\"" + this.base + "/as\",\"authorization_endpoint\":\"" + this.base
						+ "/as/authorize\",\"token_endpoint\":\"" + this.base + "/as/token\","
						+ "\"code_challenge_methods_supported\":[\"S256\"],\"scopes_supported\":[\"mcp:read\","
						+ "\"offline_access\"]" + extra + "}");
	}

	private final McpAuthorizationStore store = new InMemoryMcpAuthorizationStore();

	private Discovered discover(DiscoverySettings settings) {
		// a new discovery each time, as a replica or a restart makes it
		ClientDiscovery discovery = new ClientDiscovery(
				new BoundedExchange(HttpClient.newHttpClient(), McpJsonDefaults.getMapper(), Duration.ofSeconds(5)),
				settings, "remote", this.store);
		return discovery.discover("remote", URI.create(this.base + "/mcp"), null);
	}

	private static DiscoverySettings settings() {
		return new DiscoverySettings(false, REDIRECT, null, null, null, "my app", List.of(), null);
	}

	@Test
	void aServerWithDynamicRegistrationRegistersAPublicClientForTheCodeWithPkce() {
		authorizationServer(",\"registration_endpoint\":\"" + this.base + "/register\"");
		Discovered discovered = discover(settings());
		ClientRegistration registration = discovered.registration();
		assertThat(discovered.how()).isEqualTo("dynamic client registration");
		assertThat(registration.getClientId()).isEqualTo("dynamic-1");
		assertThat(registration.getClientAuthenticationMethod()).isEqualTo(ClientAuthenticationMethod.NONE);
		assertThat(registration.getAuthorizationGrantType()).isEqualTo(AuthorizationGrantType.AUTHORIZATION_CODE);
		assertThat(registration.getScopes()).containsExactly("mcp:read", "offline_access");
		assertThat(registration.getProviderDetails().getIssuerUri()).isEqualTo(this.base + "/as");
		assertThat(registration.getProviderDetails().getTokenUri()).isEqualTo(this.base + "/as/token");
		assertThat(this.registrations).singleElement()
			.asString()
			.contains("\"redirect_uris\":[\"" + REDIRECT + "\"]")
			.contains("\"client_name\":\"my app\"")
			.contains("\"application_type\":\"native\"")
			.contains("\"token_endpoint_auth_method\":\"none\"");
	}

	@Test
	void aClientRegisteredDynamicallyIsKeptAndServesTheNextDiscoveryWithoutRegisteringAgain() {
		authorizationServer(",\"registration_endpoint\":\"" + this.base
				+ "/register\",\"token_endpoint_auth_methods_supported\":[\"client_secret_post\"]");
		this.registered = "{\"client_id\":\"dynamic-1\",\"client_secret\":\"REGISTERED-SECRET\","
				+ "\"token_endpoint_auth_method\":\"client_secret_post\"}";
		discover(settings());
		this.registered = "{\"client_id\":\"dynamic-2\"}";
		Discovered again = discover(settings());
		assertThat(this.registrations).hasSize(1);
		assertThat(again.how()).isEqualTo("dynamic client registration, kept");
		assertThat(again.registration().getClientId()).isEqualTo("dynamic-1");
		assertThat(again.registration().getClientSecret()).isEqualTo("REGISTERED-SECRET");
		assertThat(again.registration().getClientAuthenticationMethod())
			.isEqualTo(ClientAuthenticationMethod.CLIENT_SECRET_POST);
		assertThat(this.store.dynamicClient("remote", this.base + "/as")).get()
			.hasToString("DynamicClient[server=remote, issuer=" + this.base
					+ "/as, clientId=dynamic-1, clientSecret=******]");
	}

	@Test
	void aKeptClientOfAnotherRedirectUriIsReplacedByANewRegistration() {
		authorizationServer(",\"registration_endpoint\":\"" + this.base + "/register\"");
		this.store.keepIfAbsent(new DynamicClient("remote", this.base + "/as",
				URI.create("http://127.0.0.1:9/elsewhere"), "old-client", null, "none"));
		Discovered discovered = discover(settings());
		assertThat(this.registrations).hasSize(1);
		assertThat(discovered.registration().getClientId()).isEqualTo("dynamic-1");
		assertThat(this.store.dynamicClient("remote", this.base + "/as")).get()
			.extracting(DynamicClient::clientId, DynamicClient::redirectUri)
			.containsExactly("dynamic-1", REDIRECT);
	}

	@Test
	void theFirstClientKeptServesAReplicaThatRegisteredAtTheSameTime() {
		authorizationServer(",\"registration_endpoint\":\"" + this.base + "/register\"");
		// kept by a replica while this discovery registered its own
		McpAuthorizationStore racing = new InMemoryMcpAuthorizationStore() {

			@Override
			public DynamicClient keepIfAbsent(DynamicClient client) {
				return super.keepIfAbsent(new DynamicClient(client.server(), client.issuer(), client.redirectUri(),
						"replica-client", null, "none"));
			}

		};
		ClientDiscovery discovery = new ClientDiscovery(
				new BoundedExchange(HttpClient.newHttpClient(), McpJsonDefaults.getMapper(), Duration.ofSeconds(5)),
				settings(), "remote", racing);
		assertThat(discovery.discover("remote", URI.create(this.base + "/mcp"), null).registration().getClientId())
			.isEqualTo("replica-client");
	}

	@Test
	void theResourceIsTheOneTheMetadataPublishesExactly() {
		authorizationServer(",\"registration_endpoint\":\"" + this.base + "/register\"");
		this.documents.put("/.well-known/oauth-protected-resource/mcp",
				"{\"resource\":\"" + this.base + "\",\"authorization_servers\":[\"" + this.base + "/as\"]}");
		assertThat(discover(settings()).resource()).isEqualTo(this.base);
	}

	@Test
	void aRegisteredSecretIsSentTheWayTheServerTakesIt() {
		authorizationServer(",\"registration_endpoint\":\"" + this.base
				+ "/register\",\"token_endpoint_auth_methods_supported\":[\"client_secret_post\"]");
		this.registered = "{\"client_id\":\"dynamic-2\",\"client_secret\":\"SECRET-7\"}";
		assertThat(discover(settings()).registration().getClientAuthenticationMethod())
			.isEqualTo(ClientAuthenticationMethod.CLIENT_SECRET_POST);
		this.store.forget("remote", this.base + "/as");
		this.registered = "{\"client_id\":\"dynamic-2\",\"client_secret\":\"SECRET-7\","
				+ "\"token_endpoint_auth_method\":\"none\"}";
		assertThat(discover(settings()).registration().getClientAuthenticationMethod())
			.as("a secret the server registered the client without")
			.isEqualTo(ClientAuthenticationMethod.NONE);
		this.store.forget("remote", this.base + "/as");
		this.registered = "{\"client_id\":\"dynamic-2\",\"client_secret\":\"SECRET-7\","
				+ "\"token_endpoint_auth_method\":\"client_secret_basic\"}";
		ClientRegistration registration = discover(settings()).registration();
		assertThat(registration.getClientSecret()).isEqualTo("SECRET-7");
		assertThat(registration.getClientAuthenticationMethod())
			.isEqualTo(ClientAuthenticationMethod.CLIENT_SECRET_BASIC);
	}

	@Test
	void aSecretTheServerTakesNoMethodForIsNotUsed() {
		authorizationServer(",\"registration_endpoint\":\"" + this.base
				+ "/register\",\"token_endpoint_auth_methods_supported\":[\"none\"]");
		this.registered = "{\"client_id\":\"dynamic-3\",\"client_secret\":\"SECRET-9\"}";
		ClientRegistration registration = discover(settings()).registration();
		assertThat(registration.getClientAuthenticationMethod()).isEqualTo(ClientAuthenticationMethod.NONE);
		assertThat(registration.getClientSecret()).isEmpty();
	}

	@Test
	void aClientIdMetadataDocumentIsTheClientWhereTheServerTakesOne() {
		authorizationServer(",\"client_id_metadata_document_supported\":true,\"registration_endpoint\":\"" + this.base
				+ "/register\"");
		URI document = URI.create("https://app.example/oauth/client.json");
		Discovered discovered = discover(
				new DiscoverySettings(false, REDIRECT, null, null, document, "my app", List.of(), null));
		assertThat(discovered.registration().getClientId()).isEqualTo(document.toString());
		assertThat(this.registrations).isEmpty();
	}

	@Test
	void aPreRegisteredClientIsUsedAsItIs() {
		authorizationServer(",\"registration_endpoint\":\"" + this.base + "/register\"");
		ClientRegistration registration = discover(new DiscoverySettings(false, REDIRECT, "given", "SECRET-8", null,
				"my app", List.of("mcp:write"), this.base + "/as"))
			.registration();
		assertThat(registration.getClientId()).isEqualTo("given");
		assertThat(registration.getClientAuthenticationMethod())
			.isEqualTo(ClientAuthenticationMethod.CLIENT_SECRET_BASIC);
		assertThat(registration.getScopes()).containsExactly("mcp:write");
		assertThat(this.registrations).isEmpty();
	}

	@Test
	void aServiceGetsAClientCredentialsRegistrationWithTheClientItWasGiven() {
		authorizationServer(",\"grant_types_supported\":[\"client_credentials\"]");
		ClientRegistration registration = discover(
				new DiscoverySettings(true, null, "service", "SECRET-10", null, "my app", List.of(), this.base + "/as"))
			.registration();
		assertThat(registration.getAuthorizationGrantType()).isEqualTo(AuthorizationGrantType.CLIENT_CREDENTIALS);
		assertThat(registration.getClientId()).isEqualTo("service");
		assertThat(registration.getClientAuthenticationMethod())
			.isEqualTo(ClientAuthenticationMethod.CLIENT_SECRET_BASIC);
		assertThat(registration.getScopes()).as("no refresh token for a service").containsExactly("mcp:read");
		authorizationServer(",\"grant_types_supported\":[\"authorization_code\"]");
		assertThatExceptionOfType(AuthorizationDiscoveryException.class)
			.isThrownBy(() -> discover(new DiscoverySettings(true, null, "service", "SECRET-10", null, "my app",
					List.of(), this.base + "/as")))
			.withMessageEndingWith("does not offer the client_credentials grant (grant_types_supported)");
	}

	@Test
	void aClientTheApplicationWasGivenIsShownToItsIssuerOnly() {
		authorizationServer(",\"grant_types_supported\":[\"client_credentials\"]");
		assertThatExceptionOfType(AuthorizationDiscoveryException.class)
			.isThrownBy(() -> discover(new DiscoverySettings(true, null, "service", "SECRET-11", null, "my app",
					List.of(), "https://auth.example.com")))
			.withMessageEndingWith("not the configured issuer https://auth.example.com");
		assertThatExceptionOfType(AuthorizationDiscoveryException.class)
			.isThrownBy(() -> discover(
					new DiscoverySettings(true, null, "service", "SECRET-11", null, "my app", List.of(), null)))
			.withMessageContaining("a client-id is set without the issuer it belongs to");
	}

	@Test
	void aServerWithoutPkceOrAWayToRegisterIsRefused() {
		this.documents.put("/.well-known/oauth-authorization-server/as",
				"{\"issuer\":\"" + this.base + "/as\",\"authorization_endpoint\":\"" + this.base
						+ "/a\",\"token_endpoint\":\"" + this.base + "/t\"}");
		assertThatExceptionOfType(AuthorizationDiscoveryException.class).isThrownBy(() -> discover(settings()))
			.withMessageContaining("does not offer the authorization code grant with PKCE S256");
		authorizationServer("");
		assertThatExceptionOfType(AuthorizationDiscoveryException.class).isThrownBy(() -> discover(settings()))
			.withMessageEndingWith("offers neither dynamic client registration nor a client for this application:"
					+ " set the client-id it gave this application");
	}

}
