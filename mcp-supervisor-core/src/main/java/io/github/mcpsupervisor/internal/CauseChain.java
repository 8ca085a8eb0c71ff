package io.github.mcpsupervisor.internal;

import java.util.concurrent.CancellationException;

import org.jspecify.annotations.Nullable;

import org.springframework.core.NestedExceptionUtils;

/**
 * Reads the causes of a failed attempt or call: the one place that walks a cause chain.
 *
 * @since 0.1.0
 */
public final class CauseChain {

	private CauseChain() {
	}

	/**
	 * Return the first exception of the given type in the cause chain.
	 * @param <T> the type looked for
	 * @param ex the failure
	 * @param type the type looked for
	 * @return the first cause of that type (possibly {@code ex} itself) or {@code null}
	 */
	public static <T extends Throwable> @Nullable T cause(Throwable ex, Class<T> type) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (type.isInstance(cause)) {
				return type.cast(cause);
			}
			if (cause.getCause() == cause) {
				break;
			}
		}
		return null;
	}

	/**
	 * Return whether the cause chain holds an exception of the given type.
	 * @param ex the failure
	 * @param type the type looked for
	 * @return whether {@code ex} or one of its causes is of that type
	 */
	public static boolean hasCause(Throwable ex, Class<? extends Throwable> type) {
		return cause(ex, type) != null;
	}

	/**
	 * Return the message of the most specific cause, or its type when it has none.
	 * @param ex the failure
	 * @return the message a user is shown
	 */
	public static String rootMessage(Throwable ex) {
		Throwable root = NestedExceptionUtils.getMostSpecificCause(ex);
		return (root.getMessage() != null) ? root.getMessage() : root.getClass().getSimpleName();
	}

	/**
	 * Whether the caller was cancelled or interrupted: such a call is never retried.
	 * @param ex the failure
	 * @return whether it is a cancellation or an interruption
	 */
	public static boolean isCancellation(Throwable ex) {
		return Thread.currentThread().isInterrupted() || hasCause(ex, InterruptedException.class)
				|| hasCause(ex, CancellationException.class);
	}

}
