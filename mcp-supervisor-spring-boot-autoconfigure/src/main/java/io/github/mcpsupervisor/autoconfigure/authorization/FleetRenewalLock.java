package io.github.mcpsupervisor.autoconfigure.authorization;

import java.time.Duration;
import java.util.ConcurrentModificationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

import io.github.mcpsupervisor.transport.internal.http.authorization.UserAuthorization;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.integration.support.locks.DistributedLock;

/**
 * A registration's renewal lock from the application's {@code LockRegistry}: a
 * distributed lock is taken for as long as a renewal may take, whatever its registry's
 * default time to live, and one found expired at its release is told of, never thrown
 * over the renewal's outcome.
 */
final class FleetRenewalLock implements Lock {

	private static final Log logger = LogFactory.getLog(FleetRenewalLock.class);

	private final Lock lock;

	private final String registration;

	private final Duration holdAtMost;

	FleetRenewalLock(Lock lock, String registration, Duration holdAtMost) {
		this.lock = lock;
		this.registration = registration;
		this.holdAtMost = holdAtMost;
	}

	@Override
	public void lock() {
		if (this.lock instanceof DistributedLock distributed) {
			distributed.lock(this.holdAtMost);
		}
		else {
			this.lock.lock();
		}
	}

	@Override
	public void lockInterruptibly() throws InterruptedException {
		this.lock.lockInterruptibly();
	}

	@Override
	public boolean tryLock() {
		return this.lock.tryLock();
	}

	@Override
	public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
		return this.lock.tryLock(time, unit);
	}

	@Override
	public void unlock() {
		try {
			this.lock.unlock();
		}
		catch (ConcurrentModificationException ex) {
			// Spring Integration's sign of a lock its store let expire
			logger.warn("The renewal lock of " + loggable(this.registration) + " expired after "
					+ this.holdAtMost.toMillis() + " ms, before its renewal ended: another replica may have renewed"
					+ " its token meanwhile");
		}
	}

	// a user's chain is told as such, the user never named
	private static String loggable(String key) {
		int user = key.indexOf(UserAuthorization.USER_CHAIN);
		return (user >= 0) ? "a user's token chain of client registration '" + key.substring(0, user) + "'"
				: "client registration '" + key + "'";
	}

	@Override
	public Condition newCondition() {
		return this.lock.newCondition();
	}

}
