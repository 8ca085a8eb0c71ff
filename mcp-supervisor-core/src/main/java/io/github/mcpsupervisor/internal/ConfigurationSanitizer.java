package io.github.mcpsupervisor.internal;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.BinaryOperator;

import org.jspecify.annotations.Nullable;

/**
 * Masks the secrets that a server's command line and URL carry, so that they can be shown
 * and logged: the user information and the query parameter values of a URL (hosted MCP
 * servers often take their key there), and the values of arguments whose key looks like a
 * credential, following Spring Boot's {@code SanitizingFunction.ifLikelyCredential()}: a
 * key ending with {@code password}, {@code secret}, {@code key} or {@code token}, or
 * containing {@code credentials}. Recognized arguments are {@code --token=value},
 * {@code --api-key value} and {@code API_KEY=value}; an argument that is a URL is masked
 * like one.
 *
 * @since 0.1.0
 */
public final class ConfigurationSanitizer {

	/** What a masked value is shown as. */
	public static final String MASK = "******";

	/**
	 * Masks every value, whatever its key.
	 */
	public static final BinaryOperator<String> MASK_ALL = (key, value) -> MASK;

	/** The key under which the user information of a URL is sanitized. */
	public static final String USER_INFO_KEY = "userinfo";

	// Shorter secrets are masked where they are shown structurally, but not searched for
	// in free text, where they would mask unrelated words.
	private static final int MIN_REDACTED_LENGTH = 4;

	private ConfigurationSanitizer() {
	}

	/**
	 * Return whether the key of a value looks like a credential's, by Spring Boot's
	 * rules.
	 * @param key the key, e.g. {@code --api-key}, {@code API_TOKEN} or
	 * {@code client_secret}
	 * @return whether its value is to be masked
	 */
	public static boolean isLikelyCredential(String key) {
		String lower = key.toLowerCase(Locale.ROOT);
		return lower.endsWith("password") || lower.endsWith("secret") || lower.endsWith("key")
				|| lower.endsWith("token") || lower.contains("credentials");
	}

	/**
	 * Return the arguments with the value of each secret-looking one sanitized.
	 * @param args the arguments
	 * @param values sanitizes a value, given its key and the value
	 * @return the sanitized arguments
	 */
	public static List<String> sanitizeArgs(List<String> args, BinaryOperator<String> values) {
		List<String> sanitized = new ArrayList<>(args.size());
		String pendingKey = null;
		for (String arg : args) {
			if (pendingKey != null && !arg.startsWith("--")) {
				sanitized.add(values.apply(pendingKey, arg));
				pendingKey = null;
				continue;
			}
			pendingKey = null;
			int equals = arg.indexOf('=');
			String key = stripDashes((equals > 0) ? arg.substring(0, equals) : arg);
			boolean keyed = equals > 0 && isKey(key);
			if (keyed && isLikelyCredential(key)) {
				sanitized.add(arg.substring(0, equals + 1) + values.apply(key, arg.substring(equals + 1)));
			}
			else if (keyed && arg.indexOf("://", equals) > 0) {
				sanitized.add(arg.substring(0, equals + 1) + sanitizeUrl(arg.substring(equals + 1), values));
			}
			else if (arg.contains("://")) {
				sanitized.add(sanitizeUrl(arg, values));
			}
			else {
				if (equals < 0 && arg.startsWith("-") && isLikelyCredential(key)) {
					pendingKey = key;
				}
				sanitized.add(arg);
			}
		}
		return sanitized;
	}

	/**
	 * Return the command line with every secret masked, as it may be logged.
	 * @param commandLine the command followed by its arguments
	 * @return the masked command line
	 */
	public static List<String> maskCommandLine(List<String> commandLine) {
		if (commandLine.isEmpty()) {
			return commandLine;
		}
		List<String> masked = new ArrayList<>(commandLine.size());
		masked.add(commandLine.get(0));
		masked.addAll(sanitizeArgs(commandLine.subList(1, commandLine.size()), MASK_ALL));
		return masked;
	}

	/**
	 * Return the URL with its user information and the value of each query parameter
	 * sanitized.
	 * @param url the URL
	 * @param values sanitizes a value, given its key (the parameter's name, or
	 * {@value #USER_INFO_KEY}) and the value
	 * @return the sanitized URL
	 */
	public static String sanitizeUrl(URI url, BinaryOperator<String> values) {
		StringBuilder sanitized = new StringBuilder();
		if (url.getScheme() != null) {
			sanitized.append(url.getScheme()).append(':');
		}
		if (url.isOpaque()) {
			// no authority nor query to find: nothing is shown
			return sanitized.append(values.apply("", url.getRawSchemeSpecificPart())).toString();
		}
		String authority = url.getRawAuthority();
		if (authority != null) {
			sanitized.append("//");
			int at = authority.lastIndexOf('@');
			if (at >= 0) {
				sanitized.append(values.apply(USER_INFO_KEY, authority.substring(0, at))).append('@');
			}
			sanitized.append(authority.substring(at + 1));
		}
		if (url.getRawPath() != null) {
			sanitized.append(url.getRawPath());
		}
		if (url.getRawQuery() != null) {
			sanitized.append('?');
			String[] parameters = url.getRawQuery().split("&", -1);
			for (int i = 0; i < parameters.length; i++) {
				if (i > 0) {
					sanitized.append('&');
				}
				int equals = parameters[i].indexOf('=');
				if (equals >= 0) {
					sanitized.append(parameters[i], 0, equals + 1)
						.append(values.apply(parameters[i].substring(0, equals), parameters[i].substring(equals + 1)));
				}
				else if (!parameters[i].isEmpty()) {
					sanitized.append(values.apply("", parameters[i]));
				}
			}
		}
		if (url.getRawFragment() != null) {
			sanitized.append('#').append(url.getRawFragment());
		}
		return sanitized.toString();
	}

	/**
	 * Return the URL with every secret masked, as it may be logged.
	 * @param url the URL
	 * @return the masked URL
	 */
	public static String maskUrl(URI url) {
		return sanitizeUrl(url, MASK_ALL);
	}

	/**
	 * Return the secrets of a command line and of a URL: what {@link #maskCommandLine}
	 * and {@link #maskUrl} mask.
	 * @param commandLine a command line (may be empty)
	 * @param url a URL, or {@code null}
	 * @return the secrets, as written and decoded
	 */
	public static List<String> secrets(List<String> commandLine, @Nullable URI url) {
		List<String> secrets = new ArrayList<>();
		BinaryOperator<String> collect = (key, value) -> {
			secrets.add(value);
			if (USER_INFO_KEY.equals(key) && value.indexOf(':') >= 0) {
				secrets.add(value.substring(value.indexOf(':') + 1));
			}
			return MASK;
		};
		if (!commandLine.isEmpty()) {
			sanitizeArgs(commandLine.subList(1, commandLine.size()), collect);
		}
		if (url != null) {
			sanitizeUrl(url, collect);
		}
		List<String> decoded = new ArrayList<>();
		for (String secret : secrets) {
			String plain = decode(secret);
			if (!plain.equals(secret)) {
				decoded.add(plain);
			}
		}
		secrets.addAll(decoded);
		return secrets;
	}

	/**
	 * Return the text with every occurrence of the given secrets masked: for the free
	 * text of failures, which may quote a URL or an argument.
	 * @param text the text
	 * @param secrets the secrets
	 * @return the text, masked
	 */
	public static String redact(String text, List<String> secrets) {
		List<String> longestFirst = secrets.stream()
			.filter((secret) -> secret.length() >= MIN_REDACTED_LENGTH)
			.distinct()
			.sorted(Comparator.comparingInt(String::length).reversed())
			.toList();
		String redacted = text;
		for (String secret : longestFirst) {
			redacted = redacted.replace(secret, MASK);
		}
		return redacted;
	}

	private static String sanitizeUrl(String arg, BinaryOperator<String> values) {
		try {
			return sanitizeUrl(new URI(arg), values);
		}
		catch (URISyntaxException ex) {
			// not a URL after all: the whole argument may be a secret
			return values.apply("", arg);
		}
	}

	private static String decode(String value) {
		try {
			return new URI("x:" + value).getSchemeSpecificPart();
		}
		catch (URISyntaxException ex) {
			return value;
		}
	}

	private static String stripDashes(String arg) {
		int start = 0;
		while (start < arg.length() && arg.charAt(start) == '-') {
			start++;
		}
		return arg.substring(start);
	}

	// A key of a KEY=value argument: a name, not some text that happens to hold '='.
	private static boolean isKey(String key) {
		return !key.isEmpty()
				&& key.chars().allMatch((c) -> Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.');
	}

}
