package io.github.mcpsupervisor.autoconfigure.properties;

import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanUtils;
import org.springframework.util.ReflectionUtils;

/**
 * The one rule by which a server inherits what it does not set, applied to any record of
 * {@link McpSupervisorProperties}: a component that is {@code null} takes the inherited
 * value; a group (a nested record) is inherited component by component; a map is merged
 * by key, the own entry winning (the tools' timeouts); any other value set replaces the
 * inherited one (a list such as inherit-env is one setting).
 */
final class Inheritance {

	private Inheritance() {
	}

	/**
	 * Returns a record with what {@code own} sets, and what it does not set taken from
	 * {@code inherited}.
	 * @param <T> the type of record
	 * @param own the settings a server or the defaults set
	 * @param inherited the settings they inherit
	 * @return the merged settings
	 */
	static <T extends Record> T inherit(T own, T inherited) {
		RecordComponent[] components = own.getClass().getRecordComponents();
		Object[] values = new Object[components.length];
		for (int i = 0; i < components.length; i++) {
			values[i] = inherit(value(components[i], own), value(components[i], inherited));
		}
		return BeanUtils.instantiateClass(canonicalConstructor(own), values);
	}

	/**
	 * Returns a record with some of its components replaced.
	 * @param <T> the type of record
	 * @param record the record
	 * @param replaced the new values, by the names of the components
	 * @return the record with those values
	 */
	static <T extends Record> T with(T record, Map<String, @Nullable Object> replaced) {
		RecordComponent[] components = record.getClass().getRecordComponents();
		Object[] values = new Object[components.length];
		for (int i = 0; i < components.length; i++) {
			String name = components[i].getName();
			values[i] = replaced.containsKey(name) ? replaced.get(name) : value(components[i], record);
		}
		return BeanUtils.instantiateClass(canonicalConstructor(record), values);
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private static @Nullable Object inherit(@Nullable Object own, @Nullable Object inherited) {
		if (own == null) {
			return inherited;
		}
		if (own instanceof Record group && inherited != null) {
			return inherit((Record) group, (Record) inherited);
		}
		if (own instanceof Map<?, ?> map && inherited instanceof Map<?, ?> inheritedMap && !inheritedMap.isEmpty()) {
			Map merged = new TreeMap<>(inheritedMap);
			merged.putAll(map);
			return Collections.unmodifiableMap(merged);
		}
		return own;
	}

	private static @Nullable Object value(RecordComponent component, Record record) {
		return ReflectionUtils.invokeMethod(component.getAccessor(), record);
	}

	@SuppressWarnings("unchecked")
	private static <T extends Record> Constructor<T> canonicalConstructor(T record) {
		Class<?>[] types = Arrays.stream(record.getClass().getRecordComponents())
			.map(RecordComponent::getType)
			.toArray(Class<?>[]::new);
		try {
			return (Constructor<T>) record.getClass().getDeclaredConstructor(types);
		}
		catch (NoSuchMethodException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
