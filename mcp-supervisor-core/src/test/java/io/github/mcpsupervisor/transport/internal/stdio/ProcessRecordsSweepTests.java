package io.github.mcpsupervisor.transport.internal.stdio;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import io.github.mcpsupervisor.transport.internal.stdio.ProcessRecords.ProcessTable;
import io.github.mcpsupervisor.transport.internal.stdio.ProcessRecords.RunningProcess;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for which processes {@link ProcessRecords} kills for a record of a gone run.
 */
class ProcessRecordsSweepTests {

	private static final Instant RECORDED = Instant.parse("2026-01-01T10:00:00Z");

	private final FakeTable table = new FakeTable();

	@Test
	void theRecordedServerAndWhatItStartedInItsSessionAreKilled() {
		this.table.add(100, 100, 100, RECORDED);
		this.table.add(101, 100, 100, RECORDED.plusSeconds(1));
		assertThat(ProcessRecords.terminate(record(100, true), this.table)).isTrue();
		assertThat(this.table.killed).containsExactlyInAnyOrder(100L, 101L);
	}

	@Test
	void theMembersOfItsSessionLiveOnAfterTheLeaderAreKilled() {
		this.table.add(101, 100, 100, RECORDED.plusSeconds(1));
		assertThat(ProcessRecords.terminate(record(100, true), this.table)).isTrue();
		assertThat(this.table.killed).containsExactly(101L);
	}

	@Test
	void aGroupWithTheRecordedIdInAnotherSessionIsNotKilled() {
		// an unrelated job got the recycled pid as its group id, and its leader exited
		this.table.add(200, 100, 50, RECORDED.plusSeconds(60));
		assertThat(ProcessRecords.terminate(record(100, true), this.table)).isTrue();
		assertThat(this.table.killed).isEmpty();
	}

	@Test
	void aMemberThatStartedBeforeTheRecordedServerIsNotKilled() {
		this.table.add(90, 100, 100, RECORDED.minusSeconds(60));
		assertThat(ProcessRecords.terminate(record(100, true), this.table)).isTrue();
		assertThat(this.table.killed).isEmpty();
	}

	@Test
	void withoutAGroupOfItsOwnOnlyTheRecordedProcessIsKilled() {
		// started without setsid: it shares the application's group and session
		this.table.add(100, 10, 10, RECORDED);
		this.table.add(101, 100, 10, RECORDED.plusSeconds(1));
		assertThat(ProcessRecords.terminate(record(100, false), this.table)).isTrue();
		assertThat(this.table.killed).containsExactly(100L);
	}

	@Test
	void aRecycledPidIsNotKilledNorItsGroup() {
		this.table.add(100, 100, 100, RECORDED.plusSeconds(60));
		this.table.add(101, 100, 100, RECORDED.plusSeconds(61));
		assertThat(ProcessRecords.terminate(record(100, true), this.table)).isTrue();
		assertThat(this.table.killed).isEmpty();
	}

	private static Properties record(long pid, boolean ownGroup) {
		Properties record = new Properties();
		record.setProperty("pid", Long.toString(pid));
		record.setProperty("group", Boolean.toString(ownGroup));
		record.setProperty("start", RECORDED.toString());
		record.setProperty("command", "server");
		return record;
	}

	private static final class FakeTable implements ProcessTable {

		private final Map<Long, Entry> processes = new LinkedHashMap<>();

		final List<Long> killed = new ArrayList<>();

		void add(long pid, long group, long session, @Nullable Instant start) {
			this.processes.put(pid, new Entry(new RunningProcess(pid, session, start), group));
		}

		@Override
		public Optional<RunningProcess> process(long pid) {
			return Optional.ofNullable(this.processes.get(pid)).map(Entry::process);
		}

		@Override
		public List<RunningProcess> group(long processGroup) {
			return this.processes.values()
				.stream()
				.filter((entry) -> entry.group() == processGroup)
				.map(Entry::process)
				.toList();
		}

		@Override
		public void kill(long pid) {
			if (this.processes.remove(pid) != null) {
				this.killed.add(pid);
			}
		}

		private record Entry(RunningProcess process, long group) {

		}

	}

}
