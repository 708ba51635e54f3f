package dev.iotpipeline.localstack;

/** A parent process for {@link StackOwnershipIT}: starts a long-lived child under a watchdog, prints its pid, waits. */
final class OrphanProbe {

    private OrphanProbe() {}

    public static void main(String[] args) throws Exception {
        var child = new ProcessBuilder("sleep", "600").start();
        Orphans.reapWhenParentDies(child.pid(), "TERM");
        System.out.println(child.pid());
        System.out.flush();
        Thread.sleep(600_000);
    }
}
