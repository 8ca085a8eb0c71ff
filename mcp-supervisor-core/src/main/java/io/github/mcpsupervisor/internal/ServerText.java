package io.github.mcpsupervisor.internal;

import java.nio.charset.StandardCharsets;

/**
 * Bounds text that a server controls (its error messages, its tool names, its stderr,
 * what it answered) where it lands: for the model or an application's caller it is cut to
 * {@value #MAX_MODEL_BYTES} bytes with a marker; in a log line or a status it has no
 * control characters, which could forge log lines or garble a terminal, and a bounded
 * length.
 *
 * @since 0.1.0
 */
public final class ServerText {

	/**
	 * The most bytes (UTF-8) of a result or of an error message handed to the model or to
	 * an application. 1 MB is about 250,000 tokens, more than most models' whole context,
	 * yet short enough that one answer cannot exhaust the application's memory or a
	 * request's cost.
	 */
	public static final int MAX_MODEL_BYTES = 1024 * 1024;

	/** The most characters of a server's text quoted in a log line. */
	public static final int MAX_LOG_LENGTH = 2000;

	/** The most characters of {@code lastError} and of a transition's cause. */
	public static final int MAX_LENGTH = 500;

	private static final String TRUNCATED = "… (truncated)";

	private static final int MB = 1024 * 1024;

	private ServerText() {
	}

	/**
	 * Cuts a text longer than {@link #MAX_MODEL_BYTES} in UTF-8, never inside a
	 * character, and marks the cut; the cut text with its marker is within the limit.
	 * @param text the text for the model or an application
	 * @param what what the text is, for the marker ("result", "error message")
	 * @return the text, or its start followed by a marker such as
	 * {@code …[truncated: 8 MB error message, limit 1 MB]}
	 */
	public static String forModel(String text, String what) {
		if ((long) text.length() * 3 <= MAX_MODEL_BYTES) {
			return text; // a char is at most 3 bytes in UTF-8
		}
		byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
		if (bytes.length <= MAX_MODEL_BYTES) {
			return text;
		}
		// the marker fits within the limit: a text cut once is not cut again
		String marker = "…[truncated: " + size(bytes.length) + " " + what + ", limit " + size(MAX_MODEL_BYTES) + "]";
		int end = MAX_MODEL_BYTES - marker.getBytes(StandardCharsets.UTF_8).length;
		while (end > 0 && (bytes[end] & 0xC0) == 0x80) {
			end--; // a continuation byte: the character started before
		}
		return new String(bytes, 0, end, StandardCharsets.UTF_8) + marker;
	}

	/**
	 * Returns a text of a server fit to be quoted in a log line: control characters (line
	 * breaks, ANSI escapes, Unicode line separators and bidirectional overrides) escaped
	 * as {@code \n}, {@code \r}, {@code \t} or {@code \}{@code uXXXX}, so that the text
	 * cannot start a line of its own, and at most {@link #MAX_LOG_LENGTH} characters of
	 * it kept, followed by a marker when it was cut. Secrets are masked by the caller,
	 * who knows the configuration.
	 * @param text the server's text
	 * @return the text for a log line
	 */
	public static String forLog(String text) {
		StringBuilder line = new StringBuilder(Math.min(text.length(), MAX_LOG_LENGTH + 16));
		for (int i = 0; i < text.length(); i++) {
			if (line.length() >= MAX_LOG_LENGTH) {
				return line.append(TRUNCATED).toString();
			}
			char c = text.charAt(i);
			switch (c) {
				case '\n' -> line.append("\\n");
				case '\r' -> line.append("\\r");
				case '\t' -> line.append("\\t");
				default -> {
					if (isUnsafe(c)) {
						line.append(String.format("\\u%04x", (int) c));
					}
					else {
						line.append(c);
					}
				}
			}
		}
		return line.toString();
	}

	/**
	 * Returns the text on one line: a tab or a line break becomes a space, other control
	 * characters (ANSI escapes, Unicode line separators, bidirectional overrides) are
	 * dropped. The text gets no longer.
	 * @param text the text
	 * @return the text without control characters
	 */
	public static String singleLine(String text) {
		return bounded(text, Integer.MAX_VALUE);
	}

	/**
	 * Returns the text without control characters (a tab or a line break becomes a space)
	 * and at most {@code maxLength} characters long, followed by a marker when it was
	 * cut.
	 * @param text the text
	 * @param maxLength the most characters kept
	 * @return the bounded text
	 */
	public static String bounded(String text, int maxLength) {
		StringBuilder printable = new StringBuilder(Math.min(text.length(), maxLength));
		if (text.length() <= maxLength && text.chars().noneMatch((c) -> isUnsafe((char) c))) {
			return text;
		}
		int length = 0;
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (length == maxLength) {
				return printable.append(TRUNCATED).toString();
			}
			if (c == '\t' || c == '\n' || c == '\r') {
				printable.append(' ');
				length++;
			}
			else if (!isUnsafe(c)) {
				printable.append(c);
				length++;
			}
		}
		return printable.toString();
	}

	// Control characters, line and paragraph separators, bidirectional embeddings,
	// overrides and isolates: each can make a log line read other than it is.
	private static boolean isUnsafe(char c) {
		return Character.isISOControl(c) || c == '\u2028' || c == '\u2029' || (c >= '\u202a' && c <= '\u202e')
				|| (c >= '\u2066' && c <= '\u2069');
	}

	private static String size(long bytes) {
		return (bytes >= MB) ? Math.round((double) bytes / MB) + " MB" : Math.round((double) bytes / 1024) + " KB";
	}

}
