import com.sun.tools.attach.VirtualMachine;
import javax.management.ObjectName;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

public class BrokerRequests {
    public static void main(String[] args) throws Exception {
        var vm = VirtualMachine.attach(args[0]);
        String address = vm.startLocalManagementAgent();
        vm.detach();
        try (var c = JMXConnectorFactory.connect(new JMXServiceURL(address))) {
            var s = c.getMBeanServerConnection();
            for (var n : s.queryNames(new ObjectName("kafka.network:type=RequestMetrics,name=RequestsPerSec,*"), null)) {
                System.out.println("req " + n.getKeyProperty("request") + "/" + n.getKeyProperty("version") + " " + s.getAttribute(n, "Count"));
            }
            for (var n : s.queryNames(new ObjectName("kafka.network:type=RequestMetrics,name=LocalTimeMs,*"), null)) {
                System.out.println("localms " + n.getKeyProperty("request") + " " + s.getAttribute(n, "Count") + " " + s.getAttribute(n, "Mean"));
            }
            for (var n : s.queryNames(new ObjectName("kafka.server:type=BrokerTopicMetrics,*"), null)) {
                var name = n.getKeyProperty("name");
                if (name.equals("TotalProduceRequestsPerSec") || name.equals("TotalFetchRequestsPerSec") || name.equals("MessagesInPerSec") || name.equals("BytesOutPerSec")) {
                    System.out.println("topic " + name + " " + n.getKeyProperty("topic") + " " + s.getAttribute(n, "Count"));
                }
            }
        }
    }
}
