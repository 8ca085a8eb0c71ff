package io.github.mcpsupervisor.supervisor;

/**
 * Bounds text that a server controls (its error messages, its stderr, what it answered)
 * before it is shown or logged: no control characters, which could forge log lines or
 * garble a terminal, and a bounded length.
 */
final class ServerText {

	/** The most characters of {@code lastError} and of a transition's cause. */
	static final int MAX_LENGTH = 500;

	/** The most characters of a log line. */
	static final int MAX_LOG_LENGTH = 2000;

	private static final String TRUNCATED = "… (truncated)";

	private ServerText() {
	}

	/**
	 * Returns the text without control characters (a tab or a line break becomes a space)
	 * and at most {@code maxLength} characters long, followed by a marker when it was
	 * cut.
	 * @param text the text
	 * @param maxLength the most characters kept
	 * @return the bounded text
	 */
	static String bounded(String text, int maxLength) {
		StringBuilder printable = new StringBuilder(Math.min(text.length(), maxLength));
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
			else if (!Character.isISOControl(c)) {
				printable.append(c);
				length++;
			}
		}
		return printable.toString();
	}

}
