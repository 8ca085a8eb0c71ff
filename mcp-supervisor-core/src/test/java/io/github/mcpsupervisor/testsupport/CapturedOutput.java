package io.github.mcpsupervisor.testsupport;

/**
 * What a test wrote to {@code System.out} and {@code System.err}, the logs included, as
 * Spring Boot's {@code CapturedOutput} gives it, for the core's tests that run without
 * Spring Boot.
 */
public interface CapturedOutput extends CharSequence {

	/**
	 * Both streams, in the order they were written.
	 * @return what was written to either stream
	 */
	String getAll();

	/**
	 * The standard output.
	 * @return what was written to {@code System.out}
	 */
	String getOut();

	/**
	 * The standard error.
	 * @return what was written to {@code System.err}
	 */
	String getErr();

	@Override
	default int length() {
		return toString().length();
	}

	@Override
	default char charAt(int index) {
		return toString().charAt(index);
	}

	@Override
	default CharSequence subSequence(int start, int end) {
		return toString().subSequence(start, end);
	}

}
