/* write-domains: two writers on one line, or one. */
struct queue_pair {
    unsigned long rx_head;
    unsigned long tx_head;
    unsigned long rx_packets;
    unsigned long tx_packets;
};

struct queue_pair qp;
