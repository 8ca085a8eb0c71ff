package io.github.mcpsupervisor.demo.oauth;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration;
import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration;
import org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration;
import org.springframework.boot.security.oauth2.server.authorization.autoconfigure.servlet.OAuth2AuthorizationServerAutoConfiguration;
import org.springframework.boot.security.oauth2.server.authorization.autoconfigure.servlet.OAuth2AuthorizationServerJwtAutoConfiguration;
import org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.MediaType;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.server.authorization.InMemoryOAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.OAuth2Authorization;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationCode;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationGrantAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.settings.ClientSettings;
import org.springframework.security.oauth2.server.authorization.token.JwtEncodingContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenCustomizer;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.LoginUrlAuthenticationEntryPoint;
import org.springframework.security.web.util.matcher.MediaTypeRequestMatcher;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * A real Spring Authorization Server on a loopback port (a free one unless given), in a
 * Spring Boot context of its own (only the auto-configurations it needs, no property
 * source but its own): a confidential client_credentials client
 * ({@value #SERVICE_CLIENT}, client_secret_basic, scopes {@code mcp:read mcp:admin}) and
 * a confidential authorization_code client with PKCE and refresh tokens
 * ({@value #PERSON_CLIENT}, no consent), open dynamic client registration (RFC 7591,
 * public clients, no consent), two users who log in with a form, {@value #USER} (password
 * {@value #PASSWORD}) and {@value #SECOND_USER} (password {@value #SECOND_PASSWORD}). The
 * {@value #PERSON_CLIENT} client's redirect URI is {@value #REDIRECT_URI}; as OAuth 2.1
 * and RFC 8252 ask of a loopback IP address, a redirect URI on {@code 127.0.0.1} is taken
 * with any port, so that it serves an application on
 * {@code http://127.0.0.1:8080/authorized/mcp} too. Its access tokens are JWTs whose
 * {@code aud} is the token request's RFC 8707 {@code resource} (Spring Authorization
 * Server has no resource indicators of its own), and whose {@code sub} is the user's name
 * for an authorization_code grant and the client's id for a client_credentials grant.
 * Clients revoke their tokens at its RFC 7009 revocation endpoint
 * ({@code /oauth2/revoke}, its metadata's {@code revocation_endpoint}); a refresh token
 * revoked there is refused from then on ({@code invalid_grant}). It counts its token and
 * revocation requests and can revoke every authorization it granted.
 */
public final class DemoAuthorizationServer implements AutoCloseable {

	/** The client_credentials client. */
	public static final String SERVICE_CLIENT = "service";

	/** The authorization_code client. */
	public static final String PERSON_CLIENT = "person";

	/** The secret of the client_credentials client (never to appear in a log). */
	public static final String SERVICE_SECRET = "service-secret-2f1d9c";

	/** The secret of the authorization_code client (never to appear in a log). */
	public static final String PERSON_SECRET = "person-secret-7e03ab";

	/** Where the authorization server sends the person back (nothing listens there). */
	public static final String REDIRECT_URI = "http://127.0.0.1:9/authorized/mcp";

	/** The user who authorizes. */
	public static final String USER = "ada";

	/** The password of the user who authorizes (a demo's, to type in its login form). */
	public static final String PASSWORD = "password-8c41";

	/** Another user, who authorizes for herself. */
	public static final String SECOND_USER = "grace";

	/** The password of the other user (a demo's, to type in its login form). */
	public static final String SECOND_PASSWORD = "password-3b97";

	private static final Pattern CSRF = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"");

	private final ConfigurableApplicationContext context;

	private final String issuer;

	/**
	 * Starts an authorization server whose access tokens live for the given time.
	 * @param accessTokenLifetime the access tokens' time to live
	 */
	public DemoAuthorizationServer(Duration accessTokenLifetime) {
		this(accessTokenLifetime, 0);
	}

	/**
	 * Starts an authorization server whose access tokens live for the given time, on a
	 * given loopback port.
	 * @param accessTokenLifetime the access tokens' time to live
	 * @param port the port to listen on, {@code 0} for a free one
	 */
	public DemoAuthorizationServer(Duration accessTokenLifetime, int port) {
		String clients = "spring.security.oauth2.authorizationserver.client.";
		this.context = new SpringApplicationBuilder(AuthorizationServerApplication.class)
			.web(WebApplicationType.SERVLET)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.properties(Map.ofEntries(Map.entry("spring.config.location", "optional:classpath:/nothing/"),
					Map.entry("spring.main.register-shutdown-hook", "false"),
					Map.entry("server.port", Integer.toString(port)), Map.entry("server.address", "127.0.0.1"),
					Map.entry(clients + "service.registration.client-id", SERVICE_CLIENT),
					Map.entry(clients + "service.registration.client-secret", "{noop}" + SERVICE_SECRET),
					Map.entry(clients + "service.registration.client-authentication-methods", "client_secret_basic"),
					Map.entry(clients + "service.registration.authorization-grant-types", "client_credentials"),
					Map.entry(clients + "service.registration.scopes", "mcp:read,mcp:admin"),
					Map.entry(clients + "service.token.access-token-time-to-live", accessTokenLifetime.toString()),
					Map.entry(clients + "person.registration.client-id", PERSON_CLIENT),
					Map.entry(clients + "person.registration.client-secret", "{noop}" + PERSON_SECRET),
					Map.entry(clients + "person.registration.client-authentication-methods", "client_secret_basic"),
					Map.entry(clients + "person.registration.authorization-grant-types",
							"authorization_code,refresh_token"),
					Map.entry(clients + "person.registration.redirect-uris", REDIRECT_URI),
					Map.entry(clients + "person.registration.scopes", "mcp:read,mcp:admin"),
					Map.entry(clients + "person.require-proof-key", "true"),
					Map.entry(clients + "person.require-authorization-consent", "false"),
					Map.entry(clients + "person.token.access-token-time-to-live", accessTokenLifetime.toString()),
					// as Okta, Auth0 and Entra ID do: each refresh gives a new refresh
					// token, and
					// the one it replaces is refused from then on
					Map.entry(clients + "person.token.reuse-refresh-tokens", "false")))
			.run();
		this.issuer = "http://127.0.0.1:" + ((WebServerApplicationContext) this.context).getWebServer().getPort();
	}

	/**
	 * Returns the issuer, which is also the base of its endpoints.
	 * @return the issuer URL
	 */
	public String issuer() {
		return this.issuer;
	}

	/**
	 * Returns the URL of its JWK set.
	 * @return the JWK set URL
	 */
	public String jwkSetUri() {
		return this.issuer + "/oauth2/jwks";
	}

	/**
	 * Returns how many token requests it answered with a token, by grant type.
	 * @param grantType the grant type
	 * @return how many tokens it issued for that grant
	 */
	public int tokensIssued(String grantType) {
		return this.context.getBean(Recorder.class).issued(grantType);
	}

	/**
	 * Returns how many token revocation requests (RFC 7009) it answered with success:
	 * those that revoked a token, and those with a token it did not know or no longer
	 * takes, which RFC 7009 answers alike.
	 * @return the successful revocation requests
	 */
	public int revocations() {
		return this.context.getBean(Recorder.class).revocations.get();
	}

	/**
	 * Returns how many clients registered themselves (RFC 7591).
	 * @return the clients registered dynamically
	 */
	public int clientsRegistered() {
		return ((NoConsentForPublicClients) this.context.getBean(RegisteredClientRepository.class)).registered.get();
	}

	/**
	 * Returns how many times a refresh token was presented again after a refresh had
	 * replaced it: each time, the whole authorization it belonged to was revoked, as
	 * identity providers that rotate refresh tokens do with a token they take as stolen.
	 * @return the reuses of replaced refresh tokens
	 */
	public int refreshTokenReuses() {
		return this.context.getBean(RevocableAuthorizationService.class).reuses.get();
	}

	/**
	 * Returns how many refresh tokens a refresh replaced with a new one.
	 * @return the refresh tokens replaced
	 */
	public int refreshTokensReplaced() {
		return this.context.getBean(RevocableAuthorizationService.class).replaced.size();
	}

	/**
	 * Returns the {@code resource} parameters of the token requests it answered.
	 * @return the resources, in the order of the requests
	 */
	public List<String> resources() {
		return List.copyOf(this.context.getBean(Recorder.class).resources);
	}

	/**
	 * Answers every token request with {@code 503 Service Unavailable}, or again as
	 * usual.
	 * @param unavailable whether the token endpoint is out
	 */
	public void tokenEndpointUnavailable(boolean unavailable) {
		this.context.getBean(TokenEndpointOutage.class).unavailable = unavailable;
	}

	/**
	 * Returns how many token requests it refused while its token endpoint was out.
	 * @return the refused token requests
	 */
	public int tokenRequestsRefused() {
		return this.context.getBean(TokenEndpointOutage.class).refused.get();
	}

	/**
	 * Returns the scopes of the access tokens it issued.
	 * @return the scopes of each token, in the order of the requests
	 */
	public List<Set<String>> scopes() {
		return List.copyOf(this.context.getBean(Recorder.class).scopes);
	}

	/**
	 * Returns every credential it has issued: authorization codes, access and refresh
	 * tokens.
	 * @return the credentials' values
	 */
	public Set<String> credentials() {
		return Set.copyOf(this.context.getBean(RevocableAuthorizationService.class).credentials);
	}

	/**
	 * Revokes every authorization it has granted: their access and refresh tokens are
	 * refused from now on.
	 * @return how many authorizations were revoked
	 */
	public int revokeAll() {
		RevocableAuthorizationService authorizations = this.context.getBean(RevocableAuthorizationService.class);
		return authorizations.revokeAll();
	}

	/**
	 * Acts as the person {@value #USER}: logs in with a form, follows the authorization
	 * request to the redirect to the client (the request's {@code redirect_uri}), and
	 * returns that redirect's query parameters. It never follows the redirect itself.
	 * @param authorizationUri the authorization URL the client made
	 * @return the query parameters of the redirect ({@code code}, {@code state}, …)
	 */
	public Map<String, String> authorize(URI authorizationUri) throws IOException, InterruptedException {
		return authorize(authorizationUri, USER, PASSWORD);
	}

	/**
	 * Acts as a person: logs in with a form as the given user, follows the authorization
	 * request to the redirect to the client (the request's {@code redirect_uri}), and
	 * returns that redirect's query parameters. It never follows the redirect itself.
	 * @param authorizationUri the authorization URL the client made
	 * @param user the user who logs in, {@value #USER} or {@value #SECOND_USER}
	 * @param password the user's password
	 * @return the query parameters of the redirect ({@code code}, {@code state}, …)
	 */
	public Map<String, String> authorize(URI authorizationUri, String user, String password)
			throws IOException, InterruptedException {
		// a browser of its own per authorization: a new login each time
		HttpClient browser = HttpClient.newBuilder()
			.cookieHandler(new CookieManager())
			.followRedirects(HttpClient.Redirect.NEVER)
			.connectTimeout(Duration.ofSeconds(5))
			.build();
		HttpResponse<String> toLogin = browser.send(page(authorizationUri).build(),
				HttpResponse.BodyHandlers.ofString());
		expectRedirect(toLogin, "/login");
		HttpResponse<String> loginPage = browser.send(page(URI.create(this.issuer + "/login")).build(),
				HttpResponse.BodyHandlers.ofString());
		Matcher csrf = CSRF.matcher(loginPage.body());
		if (!csrf.find()) {
			throw new IllegalStateException("no CSRF token on the login page: " + loginPage.body());
		}
		String form = "username=" + encode(user) + "&password=" + encode(password) + "&_csrf=" + encode(csrf.group(1));
		HttpResponse<String> loggedIn = browser
			.send(page(URI.create(this.issuer + "/login")).header("Content-Type", "application/x-www-form-urlencoded")
				.POST(HttpRequest.BodyPublishers.ofString(form))
				.build(), HttpResponse.BodyHandlers.ofString());
		String saved = expectRedirect(loggedIn, "/oauth2/authorize");
		HttpResponse<String> toClient = browser.send(page(URI.create(this.issuer).resolve(saved)).build(),
				HttpResponse.BodyHandlers.ofString());
		String redirectUri = query(authorizationUri).getOrDefault("redirect_uri", REDIRECT_URI);
		return query(URI.create(expectRedirect(toClient, redirectUri)));
	}

	@Override
	public void close() {
		this.context.close();
	}

	private static HttpRequest.Builder page(URI uri) {
		return HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).header("Accept", "text/html");
	}

	private static String expectRedirect(HttpResponse<String> response, String to) {
		String location = response.headers().firstValue("Location").orElse(null);
		if (response.statusCode() != 302 || location == null || !location.contains(to)) {
			throw new IllegalStateException("expected a redirect to " + to + ", got HTTP " + response.statusCode()
					+ " to " + location + ": " + response.body());
		}
		return location;
	}

	private static Map<String, String> query(URI uri) {
		Map<String, String> parameters = new LinkedHashMap<>();
		String query = uri.getRawQuery();
		if (query != null) {
			for (String pair : query.split("&")) {
				int equals = pair.indexOf('=');
				String name = (equals >= 0) ? pair.substring(0, equals) : pair;
				String value = (equals >= 0) ? pair.substring(equals + 1) : "";
				parameters.put(URLDecoder.decode(name, StandardCharsets.UTF_8),
						URLDecoder.decode(value, StandardCharsets.UTF_8));
			}
		}
		return parameters;
	}

	private static String encode(String value) {
		return URLEncoder.encode(value, StandardCharsets.UTF_8);
	}

	/**
	 * The authorization server's application: Boot's authorization server, its security
	 * and a servlet container, nothing else.
	 */
	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ TomcatServletWebServerAutoConfiguration.class, DispatcherServletAutoConfiguration.class,
			SecurityAutoConfiguration.class, ServletWebSecurityAutoConfiguration.class,
			SecurityFilterAutoConfiguration.class, OAuth2AuthorizationServerAutoConfiguration.class,
			OAuth2AuthorizationServerJwtAutoConfiguration.class })
	static class AuthorizationServerApplication {

		/** Where clients register themselves (RFC 7591), without an initial token. */
		static final String REGISTRATION_ENDPOINT = "/oauth2/register";

		// Boot's chains, as OAuth2AuthorizationServerWebSecurityConfiguration makes
		// them, with open dynamic client registration
		@Bean
		@Order(1)
		SecurityFilterChain authorizationServerSecurityFilterChain(HttpSecurity http, Recorder recorder)
				throws Exception {
			http.oauth2AuthorizationServer((server) -> {
				http.securityMatcher(server.getEndpointsMatcher());
				server.oidc(Customizer.withDefaults());
				server.clientRegistrationEndpoint((registration) -> registration.openRegistrationAllowed(true));
				// the endpoint's own answer (200, no body), counted
				server.tokenRevocationEndpoint(
						(revocation) -> revocation.revocationResponseHandler((request, response, authentication) -> {
							recorder.revocations.incrementAndGet();
							response.setStatus(HttpServletResponse.SC_OK);
						}));
			})
				.authorizeHttpRequests((requests) -> requests.requestMatchers(REGISTRATION_ENDPOINT)
					.permitAll()
					.anyRequest()
					.authenticated())
				.csrf((csrf) -> csrf.ignoringRequestMatchers(REGISTRATION_ENDPOINT))
				.oauth2ResourceServer((resourceServer) -> resourceServer.jwt(Customizer.withDefaults()))
				.exceptionHandling((exceptions) -> exceptions.defaultAuthenticationEntryPointFor(
						new LoginUrlAuthenticationEntryPoint("/login"),
						new MediaTypeRequestMatcher(MediaType.TEXT_HTML)));
			return http.build();
		}

		@Bean
		@Order(2)
		SecurityFilterChain loginSecurityFilterChain(HttpSecurity http) throws Exception {
			return http.authorizeHttpRequests((requests) -> requests.anyRequest().authenticated())
				.formLogin(Customizer.withDefaults())
				.build();
		}

		// a client that registered itself is a public client: the person is asked for
		// no consent, as for the pre-registered clients
		@Bean
		static BeanPostProcessor noConsentForRegisteredClients() {
			return new BeanPostProcessor() {
				@Override
				public Object postProcessAfterInitialization(Object bean, String beanName) {
					return (bean instanceof RegisteredClientRepository repository)
							? new NoConsentForPublicClients(repository) : bean;
				}
			};
		}

		// the users who log in with the form (Boot's spring.security.user.* makes one)
		@Bean
		InMemoryUserDetailsManager users() {
			return new InMemoryUserDetailsManager(User.withUsername(USER).password("{noop}" + PASSWORD).build(),
					User.withUsername(SECOND_USER).password("{noop}" + SECOND_PASSWORD).build());
		}

		@Bean
		Recorder recorder() {
			return new Recorder();
		}

		@Bean
		TokenEndpointOutage tokenEndpointOutage() {
			return new TokenEndpointOutage();
		}

		@Bean
		RevocableAuthorizationService authorizationService() {
			return new RevocableAuthorizationService();
		}

		@Bean
		OAuth2TokenCustomizer<JwtEncodingContext> audienceFromResource(Recorder recorder) {
			return (context) -> {
				if (!OAuth2TokenType.ACCESS_TOKEN.equals(context.getTokenType())) {
					return;
				}
				Object resource = (context
					.getAuthorizationGrant() instanceof OAuth2AuthorizationGrantAuthenticationToken grant)
							? grant.getAdditionalParameters().get("resource") : null;
				if (resource instanceof String single) {
					context.getClaims().audience(List.of(single));
				}
				recorder.issued(context.getAuthorizationGrantType().getValue(),
						(resource instanceof String single) ? single : String.valueOf(resource),
						context.getAuthorizedScopes());
			};
		}

	}

	/**
	 * The registered clients, public clients saved without a consent page.
	 */
	static final class NoConsentForPublicClients implements RegisteredClientRepository {

		private final RegisteredClientRepository delegate;

		NoConsentForPublicClients(RegisteredClientRepository delegate) {
			this.delegate = delegate;
		}

		private final AtomicInteger registered = new AtomicInteger();

		@Override
		public void save(RegisteredClient client) {
			if (this.delegate.findById(client.getId()) == null) {
				this.registered.incrementAndGet();
			}
			if (client.getClientAuthenticationMethods().contains(ClientAuthenticationMethod.NONE)) {
				client = RegisteredClient.from(client)
					.clientSettings(ClientSettings.withSettings(client.getClientSettings().getSettings())
						.requireAuthorizationConsent(false)
						.build())
					.build();
			}
			this.delegate.save(client);
		}

		@Override
		public @Nullable RegisteredClient findById(String id) {
			return this.delegate.findById(id);
		}

		@Override
		public @Nullable RegisteredClient findByClientId(String clientId) {
			return this.delegate.findByClientId(clientId);
		}

	}

	/**
	 * What the authorization server issued.
	 */
	static final class Recorder {

		private final Map<String, AtomicInteger> issued = new ConcurrentHashMap<>();

		private final List<String> resources = new CopyOnWriteArrayList<>();

		private final List<Set<String>> scopes = new CopyOnWriteArrayList<>();

		private final AtomicInteger revocations = new AtomicInteger();

		void issued(String grantType, String resource, Set<String> scopes) {
			this.issued.computeIfAbsent(grantType, (key) -> new AtomicInteger()).incrementAndGet();
			this.resources.add(resource);
			this.scopes.add(Set.copyOf(scopes));
		}

		int issued(String grantType) {
			AtomicInteger count = this.issued.get(grantType);
			return (count != null) ? count.get() : 0;
		}

	}

	/**
	 * A switchable outage of the token endpoint, in front of the security filters.
	 */
	static final class TokenEndpointOutage extends OncePerRequestFilter implements Ordered {

		private final AtomicInteger refused = new AtomicInteger();

		private volatile boolean unavailable;

		@Override
		protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
				throws ServletException, IOException {
			if (this.unavailable && request.getRequestURI().equals("/oauth2/token")) {
				this.refused.incrementAndGet();
				response.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
				return;
			}
			chain.doFilter(request, response);
		}

		@Override
		public int getOrder() {
			return Ordered.HIGHEST_PRECEDENCE;
		}

	}

	/**
	 * The in-memory authorizations, which it can forget all at once.
	 */
	static final class RevocableAuthorizationService implements OAuth2AuthorizationService {

		private final InMemoryOAuth2AuthorizationService delegate = new InMemoryOAuth2AuthorizationService();

		private final Set<String> ids = ConcurrentHashMap.newKeySet();

		private final Set<String> credentials = ConcurrentHashMap.newKeySet();

		// each refresh token a refresh replaced, and the authorization it belonged to
		private final Map<String, String> replaced = new ConcurrentHashMap<>();

		private final AtomicInteger reuses = new AtomicInteger();

		@Override
		public void save(OAuth2Authorization authorization) {
			OAuth2Authorization previous = this.delegate.findById(authorization.getId());
			if (previous != null && previous.getRefreshToken() != null && authorization.getRefreshToken() != null) {
				String before = previous.getRefreshToken().getToken().getTokenValue();
				if (!before.equals(authorization.getRefreshToken().getToken().getTokenValue())) {
					this.replaced.put(before, authorization.getId());
				}
			}
			this.delegate.save(authorization);
			this.ids.add(authorization.getId());
			Stream
				.of(authorization.getToken(OAuth2AuthorizationCode.class), authorization.getAccessToken(),
						authorization.getRefreshToken())
				.filter(Objects::nonNull)
				.forEach((token) -> this.credentials.add(token.getToken().getTokenValue()));
		}

		@Override
		public void remove(OAuth2Authorization authorization) {
			this.delegate.remove(authorization);
			this.ids.remove(authorization.getId());
		}

		@Override
		public @Nullable OAuth2Authorization findById(String id) {
			return this.delegate.findById(id);
		}

		@Override
		public @Nullable OAuth2Authorization findByToken(String token, @Nullable OAuth2TokenType tokenType) {
			String reused = this.replaced.get(token);
			if (reused != null && (tokenType == null || OAuth2TokenType.REFRESH_TOKEN.equals(tokenType))) {
				// a replaced refresh token presented again: the chain is revoked
				this.reuses.incrementAndGet();
				OAuth2Authorization chain = this.delegate.findById(reused);
				if (chain != null) {
					remove(chain);
				}
				return null;
			}
			return this.delegate.findByToken(token, tokenType);
		}

		int revokeAll() {
			int revoked = 0;
			for (String id : Set.copyOf(this.ids)) {
				OAuth2Authorization authorization = this.delegate.findById(id);
				if (authorization != null) {
					remove(authorization);
					revoked++;
				}
			}
			return revoked;
		}

	}

}
