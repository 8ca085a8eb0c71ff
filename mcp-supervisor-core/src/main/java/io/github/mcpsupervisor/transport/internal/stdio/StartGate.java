package io.github.mcpsupervisor.transport.internal.stdio;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The bound on how many stdio servers an application starts at once, which all its stdio
 * connectors share. A start (a generation's spawn and handshake, until it is connected or
 * has failed) holds one of the gate's places; the starts beyond them wait, in the order
 * they came, for a place to be left. A start stopped while it waits leaves the line at
 * once, without a place and without a process.
 * <p>
 * Many servers spawned in the same instant share the CPU while each runtime loads (a JVM,
 * node, npx resolving its package): each handshake takes as long as all of them together,
 * and they can all miss their initialization timeouts at once. In line, each handshake
 * takes about as long as that of a few servers. The wait comes after a retry's backoff,
 * whose jitter it keeps, and before the process is spawned, so it never counts against
 * the server's initialization timeout.
 *
 * @since 0.1.0
 */
public final class StartGate {

	private static final Log logger = LogFactory.getLog(StartGate.class);

	private static final StartGate UNBOUNDED = new StartGate(null, Integer.MAX_VALUE);

	// fair: the starts that wait get their places in the order they came
	private final @Nullable Semaphore places;

	private final int limit;

	private StartGate(@Nullable Semaphore places, int limit) {
		this.places = places;
		this.limit = limit;
	}

	/**
	 * Returns a gate that lets every start through at once.
	 * @return the gate
	 */
	public static StartGate unbounded() {
		return UNBOUNDED;
	}

	/**
	 * Returns a gate with places for a number of starts at once.
	 * @param limit how many stdio servers may start at once, at least 1
	 * @return the gate
	 * @throws IllegalArgumentException if the limit is less than 1
	 */
	public static StartGate atMost(int limit) {
		if (limit < 1) {
			throw new IllegalArgumentException("at least one stdio server must be allowed to start, not " + limit);
		}
		return new StartGate(new Semaphore(limit, true), limit);
	}

	/**
	 * Returns how many stdio servers may start at once.
	 * @return the limit, {@link Integer#MAX_VALUE} when unbounded
	 */
	public int limit() {
		return this.limit;
	}

	// How many places are free now.
	int free() {
		return (this.places != null) ? this.places.availablePermits() : this.limit;
	}

	// How many starts wait for a place now, as far as the semaphore tells.
	int waiting() {
		return (this.places != null) ? this.places.getQueueLength() : 0;
	}

	/**
	 * Returns the start of one generation, not yet in line.
	 * @param server the server's name
	 * @param generation the generation's number
	 * @return the start
	 */
	Start start(String server, int generation) {
		return new Start(server, generation);
	}

	/**
	 * The start of one generation: it takes a place at most once and leaves it exactly
	 * once, and a stop ends its wait at once.
	 */
	final class Start {

		private final String server;

		private final int generation;

		private @Nullable Thread waiter;

		private boolean stopped;

		private boolean holding;

		Start(String server, int generation) {
			this.server = server;
			this.generation = generation;
		}

		/**
		 * Takes a place, waiting in line for one while the gate has none free.
		 * @return whether it holds a place: {@code false} if the start was stopped before
		 * or while it waited, or its thread interrupted (its interrupt status is then set
		 * again)
		 */
		boolean enter() {
			Semaphore semaphore = StartGate.this.places;
			synchronized (this) {
				if (this.stopped) {
					return false;
				}
				if (semaphore == null) {
					return true;
				}
			}
			try {
				// a timed try, unlike tryAcquire(), never takes a place ahead of the
				// starts in line
				if (semaphore.tryAcquire(0, TimeUnit.NANOSECONDS)) {
					return entered(semaphore);
				}
				long since = System.nanoTime();
				if (logger.isInfoEnabled()) {
					logger.info("MCP server '" + this.server + "': generation " + this.generation
							+ " waits its turn to start, number " + (semaphore.getQueueLength() + 1)
							+ " in line (stdio servers starting at once: at most " + StartGate.this.limit + ")");
				}
				synchronized (this) {
					if (this.stopped) {
						return false;
					}
					// only the wait itself is ever interrupted by a stop
					this.waiter = Thread.currentThread();
				}
				semaphore.acquire();
				if (logger.isDebugEnabled()) {
					logger.debug("MCP server '" + this.server + "': generation " + this.generation + " starts after "
							+ TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since) + " ms in line");
				}
				return entered(semaphore);
			}
			catch (InterruptedException ex) {
				synchronized (this) {
					this.waiter = null;
					if (!this.stopped) {
						// not the stop's: the thread's owner wants it back
						Thread.currentThread().interrupt();
					}
				}
				return false;
			}
		}

		// A place was taken: held, unless the start was stopped meanwhile.
		private synchronized boolean entered(Semaphore semaphore) {
			if (this.waiter != null) {
				this.waiter = null;
				if (this.stopped) {
					// the stop's interrupt came as the place was taken: it ends here
					Thread.interrupted();
				}
			}
			if (this.stopped) {
				semaphore.release();
				return false;
			}
			this.holding = true;
			return true;
		}

		/** Leaves the place taken, if one was; only the first call of a start does. */
		void leave() {
			Semaphore semaphore = StartGate.this.places;
			synchronized (this) {
				if (!this.holding || semaphore == null) {
					return;
				}
				this.holding = false;
			}
			semaphore.release();
		}

		/**
		 * Stops the start: a wait in line ends at once, and a start not yet in line never
		 * enters. A place already taken is left by {@link #leave()}.
		 */
		void stop() {
			synchronized (this) {
				this.stopped = true;
				Thread thread = this.waiter;
				if (thread != null) {
					thread.interrupt();
				}
			}
		}

	}

}
