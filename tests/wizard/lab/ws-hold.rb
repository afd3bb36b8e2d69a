# Holds N Action Cable WebSockets open through a balancer for SECONDS (fault suite, issue 23): TLS to ADDR:443 with
# SNI HOST (verified against the test CA), the upgrade handshake at /cable, then reads and discards (welcome, pings).
# Prints "ws-upgraded=K" after the handshakes and "ws-open-at-end=K" when it stops. Plain sockets: no gems needed.
require "socket"
require "openssl"

addr, host, n, seconds = ARGV
ctx = OpenSSL::SSL::SSLContext.new
ctx.set_params(verify_mode: OpenSSL::SSL::VERIFY_PEER, ca_file: "/etc/readme-ca/ca.pem")
socks = Array.new(n.to_i) do
  ssl = OpenSSL::SSL::SSLSocket.new(TCPSocket.new(addr, 443), ctx)
  ssl.hostname = host
  ssl.sync_close = true
  ssl.connect
  ssl.write("GET /cable HTTP/1.1\r\nHost: #{host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" \
            "Sec-WebSocket-Key: #{[Random.bytes(16)].pack('m0')}\r\nSec-WebSocket-Version: 13\r\n" \
            "Sec-WebSocket-Protocol: actioncable-v1-json\r\nOrigin: https://#{host}\r\n\r\n")
  ssl
end
head = Hash.new { |h, k| h[k] = +"" }
deadline = Time.now + 20
while head.size < socks.size || head.values.any? { |v| !v.include?("\r\n\r\n") }
  break if Time.now > deadline
  ready, = IO.select(socks, nil, nil, 1)
  (ready || []).each { |s| d = s.read_nonblock(4096, exception: false); head[s] << d if d.is_a?(String) }
end
upgraded = socks.select { |s| head[s].start_with?("HTTP/1.1 101") }
puts "ws-upgraded=#{upgraded.size}"
$stdout.flush
open = upgraded.dup
stop = Time.now + seconds.to_f
while Time.now < stop && !open.empty?
  ready, = IO.select(open, nil, nil, 1)
  (ready || []).each { |s| open.delete(s) if s.read_nonblock(65536, exception: false).nil? } # nil: closed
end
puts "ws-open-at-end=#{open.size}"
