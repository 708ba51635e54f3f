package dev.iotpipeline.events;

/** Which data units a rule looks at; a null field matches anything. */
public record RuleFilter(String channel, String deviceType, String deviceId) {

    public static final RuleFilter ANY = new RuleFilter(null, null, null);

    public boolean matches(DataUnit unit) {
        return (channel == null || channel.equals(unit.channel()))
                && (deviceType == null || deviceType.equals(unit.deviceType()))
                && (deviceId == null || deviceId.equals(unit.deviceId()));
    }
}
