package io.github.mcpsupervisor.autoconfigure.properties;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.reflect.RecordComponent;
import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.Server;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringUtils;

/**
 * The rules of the servers that involve more than one property: a stdio server needs a
 * command, a streamable-http server an absolute http(s) URL that names its host once and
 * carries no credentials, and headers that HTTP can carry as written; a working directory
 * must exist; environment variables, the command and the arguments must be what a process
 * can be started with; the settings of the other transport are refused. A disabled server
 * is not checked: its settings may hold on another host only. {@code mcp.defaults}
 * refuses the settings that are a server's own.
 */
@Documented
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = ValidServers.Validator.class)
@interface ValidServers {

	/**
	 * The settings of how a server is reached and authorized, by their names in
	 * {@link McpSupervisorProperties.Server}: each server's own, which
	 * {@code mcp.defaults} refuses.
	 */
	Set<String> OWN_SETTINGS = Set.of("enabled", "transport", "command", "args", "env", "workingDirectory", "url",
			"headers", "roots", "oauth");

	String message() default "invalid MCP server";

	Class<?>[] groups() default {};

	Class<? extends Payload>[] payload() default {};

	/**
	 * Reports each broken rule at the property it concerns.
	 */
	class Validator implements ConstraintValidator<ValidServers, McpSupervisorProperties> {

		// Those the JDK's HTTP client refuses to be given.
		private static final Set<String> RESTRICTED_HEADERS = Set.of("connection", "content-length", "expect", "host",
				"upgrade");

		@Override
		public boolean isValid(McpSupervisorProperties properties, ConstraintValidatorContext context) {
			context.disableDefaultConstraintViolation();
			boolean valid = ownSettingsNotInTheDefaults(properties.defaults(), (property, message) -> {
				context.buildConstraintViolationWithTemplate(message)
					.addPropertyNode("defaults")
					.addPropertyNode(property)
					.addConstraintViolation();
				return false;
			});
			for (Map.Entry<String, Server> server : new TreeMap<>(properties.servers()).entrySet()) {
				if (server.getValue().isEnabled()) {
					valid &= isValid(server.getValue(), properties.effective(server.getValue()),
							(property, message) -> {
								context.buildConstraintViolationWithTemplate(message)
									.addPropertyNode("servers")
									.addPropertyNode(property)
									.inIterable()
									.atKey(server.getKey())
									.addConstraintViolation();
								return false;
							});
				}
			}
			return valid;
		}

		// a server that runs only while it is used is started by calls, which wait for it
		private static boolean waitsForItsStarts(Server effective, Report report) {
			Duration wait = effective.call().waitForRecovery();
			boolean onDemand = Boolean.TRUE.equals(effective.idle().startOnFirstUse())
					|| (effective.idle().timeout() != null && !effective.idle().timeout().isZero());
			if (onDemand && wait != null && wait.isZero()) {
				return report.violation("idle", "needs call.wait-for-recovery above 0: the first call after an idle "
						+ "time waits for the server's start");
			}
			return true;
		}

		// the settings of how a server is reached and authorized: each server's own
		private static boolean ownSettingsNotInTheDefaults(Server defaults, Report report) {
			boolean valid = true;
			for (RecordComponent component : Server.class.getRecordComponents()) {
				Object value = ReflectionUtils.invokeMethod(component.getAccessor(), defaults);
				if (OWN_SETTINGS.contains(component.getName()) && isSet(value)) {
					valid = report.violation(component.getName(),
							"is a setting of each server, not inherited: set it under mcp.servers.<name>");
				}
			}
			return valid;
		}

		private static boolean isSet(@Nullable Object value) {
			return value != null && !(value instanceof Collection<?> collection && collection.isEmpty())
					&& !(value instanceof Map<?, ?> map && map.isEmpty())
					&& !McpSupervisorProperties.OAuth.NONE.equals(value);
		}

		private static boolean isValid(Server server, Server effective, Report report) {
			boolean valid = true;
			valid &= waitsForItsStarts(effective, report);
			valid &= ofTheTransport(server, report);
			if (server.transportOrDefault() == McpTransportType.STDIO && !StringUtils.hasText(server.command())) {
				valid = report.violation("command", "is required when transport is stdio");
			}
			if (server.transportOrDefault() == McpTransportType.STREAMABLE_HTTP) {
				if (server.url() == null) {
					valid = report.violation("url", "is required when transport is streamable-http");
				}
				else if (!server.url().isAbsolute() || server.url().getHost() == null
						|| !("http".equals(server.url().getScheme()) || "https".equals(server.url().getScheme()))) {
					valid = report.violation("url", "must be an absolute http or https URL");
				}
				else if (server.url().getRawUserInfo() != null) {
					valid = report.violation("url",
							"must not carry user information (user:password@), which "
									+ "the HTTP client never sends: give the credentials in headers instead, "
									+ "e.g. headers.Authorization=Basic <base64 of user:password>");
				}
				else if (startsWithTwoSlashes(server.url())) {
					valid = report.violation("url",
							"must not have a path that starts with //: what follows "
									+ "reads as another host, which requests and their credentials could be sent to "
									+ "(a base URL ending in / followed by /mcp gives this); remove the extra /");
				}
			}
			valid &= validHeaders(server, report);
			valid &= validProcess(server, report);
			for (int i = 0; i < server.roots().size(); i++) {
				URI root = server.roots().get(i);
				if (!"file".equals(root.getScheme()) || !root.isAbsolute() || root.getPath() == null) {
					valid = report.violation("roots[" + i + "]",
							"must be an absolute file: URI, e.g. file:///srv/data");
				}
			}
			if (server.workingDirectory() != null && !Files.isDirectory(server.workingDirectory())) {
				valid = report.violation("workingDirectory", "must be an existing directory");
			}
			McpSupervisorProperties.OAuth oauth = server.oauth();
			String registration = oauth.registration();
			if (registration != null && !StringUtils.hasText(registration)) {
				valid = report.violation("oauth.registration", "must not be blank");
			}
			if (registration != null && (oauth.redirectUri() != null || oauth.clientId() != null
					|| oauth.clientSecret() != null || oauth.clientMetadataDocument() != null)) {
				valid = report.violation("oauth.registration", "is the whole client: redirect-uri, client-id,"
						+ " client-secret and client-metadata-document are for discovery, without a registration");
			}
			boolean clientCredentials = oauth.grantType() == McpSupervisorProperties.OAuth.GrantType.CLIENT_CREDENTIALS;
			if (registration != null && oauth.grantType() != null) {
				valid = report.violation("oauth.grant-type", "is the registration's: set it there");
			}
			if (registration == null && clientCredentials
					&& (oauth.clientId() == null || oauth.clientSecret() == null)) {
				valid = report.violation("oauth.grant-type", "client-credentials needs client-id and client-secret");
			}
			if (registration == null && clientCredentials && oauth.redirectUri() != null) {
				valid = report.violation("oauth.redirect-uri", "is for the authorization code, not client-credentials");
			}
			if (registration == null && !clientCredentials && oauth.redirectUri() == null
					&& (oauth.clientId() != null || oauth.clientSecret() != null
							|| oauth.clientMetadataDocument() != null || oauth.grantType() != null)) {
				valid = report.violation("oauth.redirect-uri", "is required for discovery (client-id,"
						+ " client-secret and client-metadata-document are set)");
			}
			if (oauth.redirectUri() != null && !isHttpUrl(oauth.redirectUri())) {
				valid = report.violation("oauth.redirect-uri", "must be an absolute http or https URL");
			}
			if (oauth.clientMetadataDocument() != null && (!"https".equals(oauth.clientMetadataDocument().getScheme())
					|| oauth.clientMetadataDocument().getHost() == null)) {
				valid = report.violation("oauth.client-metadata-document", "must be an absolute https URL");
			}
			if (registration == null && oauth.clientId() != null && oauth.issuer() == null) {
				valid = report.violation("oauth.issuer", "is required with client-id: the client's secret goes to"
						+ " that authorization server only, whichever one the server names");
			}
			if (registration != null && oauth.issuer() != null) {
				valid = report.violation("oauth.issuer", "is the registration's provider's: set it there");
			}
			if (oauth.clientSecret() != null && oauth.clientId() == null) {
				valid = report.violation("oauth.client-secret", "needs the client-id it belongs to");
			}
			if (oauth.isForUsers() && registration == null) {
				valid = report.violation("oauth.acts-for", "user needs oauth.registration: the authorization_code"
						+ " registration each user authorizes (discovery authorizes the application only)");
			}
			if (!oauth.isForUsers() && (oauth.applicationRegistration() != null
					|| oauth.withoutUser() != McpSupervisorProperties.OAuth.WithoutUser.REFUSE
					|| oauth.linkToModel())) {
				valid = report.violation("oauth.acts-for", "is application: application-registration, without-user"
						+ " and link-to-model are for a server that acts for each user (acts-for: user)");
			}
			if (oauth.applicationRegistration() != null && !StringUtils.hasText(oauth.applicationRegistration())) {
				valid = report.violation("oauth.application-registration", "must not be blank");
			}
			if (oauth.isEnabled()) {
				if (server.transportOrDefault() != McpTransportType.STREAMABLE_HTTP) {
					valid = report.violation((registration != null) ? "oauth.registration" : "oauth.redirect-uri",
							"authorizes streamable-http servers only");
				}
				if (server.headers().keySet().stream().anyMatch("Authorization"::equalsIgnoreCase)) {
					valid = report.violation("headers",
							"has an Authorization header, and oauth.registration sets the server's token");
				}
			}
			return valid;
		}

		// a setting of the other transport would be silently ignored
		private static boolean ofTheTransport(Server server, Report report) {
			boolean stdio = server.transportOrDefault() == McpTransportType.STDIO;
			Map<String, Boolean> set = new LinkedHashMap<>();
			if (stdio) {
				set.put("url", server.url() != null);
				set.put("headers", !server.headers().isEmpty());
				set.put("http", server.http().isSet());
				// an enabled one is refused below, at the setting that enables it
				set.put("oauth",
						!server.oauth().isEnabled() && !server.oauth().equals(McpSupervisorProperties.OAuth.NONE));
			}
			else {
				set.put("command", StringUtils.hasText(server.command()));
				set.put("args", !server.args().isEmpty());
				set.put("env", !server.env().isEmpty());
				set.put("workingDirectory", server.workingDirectory() != null);
				set.put("inheritEnv", server.inheritEnv() != null);
				set.put("terminationGracePeriod", server.terminationGracePeriod() != null);
				set.put("standby.enabled", server.standby().enabled() != null);
			}
			boolean valid = true;
			for (Map.Entry<String, Boolean> setting : set.entrySet()) {
				if (setting.getValue()) {
					valid = report.violation(setting.getKey(),
							stdio ? "is a setting of streamable-http servers, and this server's transport is stdio"
									: "is a setting of stdio servers, and this server's transport is streamable-http");
				}
			}
			return valid;
		}

		private static boolean isHttpUrl(URI url) {
			return url.isAbsolute() && url.getHost() != null
					&& ("http".equals(url.getScheme()) || "https".equals(url.getScheme()));
		}

		private static boolean startsWithTwoSlashes(URI url) {
			String path = url.getRawPath();
			String normalized = url.normalize().getRawPath();
			return (path != null && path.startsWith("//")) || (normalized != null && normalized.startsWith("//"));
		}

		// The names are told, the values never: they are credentials.
		private static boolean validHeaders(Server server, Report report) {
			boolean valid = true;
			for (Map.Entry<String, String> header : server.headers().entrySet()) {
				String name = header.getKey();
				String value = header.getValue();
				if (name.isEmpty() || !name.chars().allMatch(Validator::isTokenChar)) {
					valid = report.violation("headers", "header name '" + printable(name)
							+ "' is not an HTTP token: letters, digits and !#$%&'*+-.^_`|~ only");
				}
				else if (RESTRICTED_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
					valid = report.violation("headers",
							"header '" + name + "' is set by the HTTP client itself and cannot be configured");
				}
				else if (value.chars().anyMatch((c) -> Character.isISOControl(c) && c != '\t')) {
					// C0, DEL and C1 (U+0080 to U+009F)
					valid = report.violation("headers", "the value of header '" + name
							+ "' contains a line break or another control character (the value is not shown)");
				}
				else if (value.chars().anyMatch((c) -> c > 0xff)) {
					// the HTTP client refuses them on every request
					valid = report.violation("headers", "the value of header '" + name
							+ "' has a character above U+00FF, which HTTP headers cannot carry (the value is not shown)");
				}
				else if (!value.isEmpty()
						&& (isWhitespace(value.charAt(0)) || isWhitespace(value.charAt(value.length() - 1)))) {
					valid = report.violation("headers", "the value of header '" + name
							+ "' starts or ends with whitespace (the value is not shown)");
				}
			}
			return valid;
		}

		// What the operating system refuses to start a process with, at every attempt:
		// a variable's name with '=' or NUL, or none; a NUL in a value, the command or an
		// argument. The values are never told: they may be credentials.
		private static boolean validProcess(Server server, Report report) {
			boolean valid = true;
			for (Map.Entry<String, String> variable : server.env().entrySet()) {
				String name = variable.getKey();
				if (name.isEmpty() || name.indexOf('=') >= 0 || name.indexOf('\0') >= 0) {
					valid = report.violation("env", "'" + printable(name) + "' is not the name of an environment "
							+ "variable: a name is not empty and has no '=' and no NUL character");
				}
				else if (variable.getValue().indexOf('\0') >= 0) {
					valid = report.violation("env", "the value of variable '" + printable(name)
							+ "' contains a NUL character, which no process environment can hold (the value is not shown)");
				}
			}
			if (server.command() != null && server.command().indexOf('\0') >= 0) {
				valid = report.violation("command", "contains a NUL character, which no command line can hold");
			}
			for (int i = 0; i < server.args().size(); i++) {
				if (server.args().get(i).indexOf('\0') >= 0) {
					valid = report.violation("args[" + i + "]",
							"contains a NUL character, which no command line " + "can hold (the value is not shown)");
				}
			}
			return valid;
		}

		private static boolean isTokenChar(int c) {
			return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
					|| "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
		}

		private static boolean isWhitespace(char c) {
			return c == ' ' || c == '\t';
		}

		// A name as it may be shown in a message: control characters escaped.
		private static String printable(String name) {
			StringBuilder printable = new StringBuilder();
			name.chars()
				.forEach((c) -> printable
					.append((c < 0x20 || c == 0x7f) ? String.format("\\u%04x", c) : String.valueOf((char) c)));
			return printable.toString();
		}

	}

	/**
	 * Reports a broken rule at a property of a server, or of the defaults.
	 */
	@FunctionalInterface
	interface Report {

		/**
		 * Reports a broken rule.
		 * @param property the property, as named in the record
		 * @param message the rule it breaks
		 * @return {@code false}
		 */
		boolean violation(String property, String message);

	}

}
