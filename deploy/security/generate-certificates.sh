#!/usr/bin/env bash
# The certificates, stores and passwords of docker-compose.secured.yml, generated at its first start into
# DIRECTORY and kept on later starts (delete DIRECTORY's files to start over with new ones). Only keytool, which
# every Java runtime has, and a shell's base64 are used.
#
#   generate-certificates.sh DIRECTORY [OWNER]
#
# Writes: a CA (its key is discarded when the script ends: nothing else gets signed), truststore.p12 (the CA's
# certificate), kafka.p12 (the broker's key and certificate, CN=kafka, for kafka and localhost), admin.p12 (the
# administrator's, CN=admin), the stores' passwords for the Kafka image (store-password, truststore-password), the
# administrator's client settings (admin.properties), the SCRAM passwords of the users dpstream and reader
# (users.env), the service's login read by Kafka's FileConfigProvider (dpstream.properties), and the reader's client
# settings for the host (reader.properties, paths relative to the repository). OWNER (uid:gid) gets the files;
# the private ones are readable by OWNER's group only, the trust store and the reader's settings by anyone.
set -euo pipefail

dir="${1:?usage: generate-certificates.sh DIRECTORY [OWNER]}"
owner="${2:-}"
if [[ -f "$dir/truststore.p12" ]]; then
  echo "certificates found in $dir: kept"
  exit 0
fi
mkdir -p "$dir"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
umask 077

password() { head -c 48 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c 32; }
store_password=$(password)
trust_password=$(password)
dpstream_password=$(password)
reader_password=$(password)
days=825

keytool -genkeypair -alias ca -keyalg EC -groupname secp256r1 -dname "CN=dpstream compose CA" \
  -ext bc:c=ca:true,pathlen:0 -ext ku:c=keyCertSign,cRLSign -validity "$days" \
  -keystore "$work/ca.p12" -storetype PKCS12 -storepass "$store_password"
keytool -exportcert -rfc -alias ca -keystore "$work/ca.p12" -storepass "$store_password" -file "$work/ca.pem"
keytool -importcert -noprompt -alias ca -file "$work/ca.pem" \
  -keystore "$dir/truststore.p12" -storetype PKCS12 -storepass "$trust_password"

# issue NAME SUBJECT_ALTERNATIVE_NAMES: a key store with NAME's key and its certificate signed by the CA.
issue() {
  local name=$1 san=$2
  keytool -genkeypair -alias "$name" -keyalg EC -groupname secp256r1 -dname "CN=$name" -validity "$days" \
    -keystore "$dir/$name.p12" -storetype PKCS12 -storepass "$store_password"
  keytool -certreq -alias "$name" -keystore "$dir/$name.p12" -storepass "$store_password" -file "$work/$name.csr"
  keytool -gencert -rfc -alias ca -keystore "$work/ca.p12" -storepass "$store_password" \
    -infile "$work/$name.csr" -outfile "$work/$name.pem" -validity "$days" \
    -ext "san=$san" -ext ku:c=digitalSignature,keyAgreement -ext eku=serverAuth,clientAuth
  keytool -importcert -noprompt -alias ca -file "$work/ca.pem" -keystore "$dir/$name.p12" -storepass "$store_password"
  keytool -importcert -noprompt -alias "$name" -file "$work/$name.pem" -keystore "$dir/$name.p12" \
    -storepass "$store_password"
}
issue kafka "dns:kafka,dns:localhost,ip:127.0.0.1"
issue admin "dns:admin"

jaas() {
  printf 'org.apache.kafka.common.security.scram.ScramLoginModule required username="%s" password="%s";' "$1" "$2"
}
printf '%s' "$store_password" > "$dir/store-password"
printf '%s' "$trust_password" > "$dir/truststore-password"
cat > "$dir/admin.properties" <<PROPERTIES
security.protocol=SSL
ssl.keystore.type=PKCS12
ssl.keystore.location=/etc/kafka/secrets/admin.p12
ssl.keystore.password=$store_password
ssl.key.password=$store_password
ssl.truststore.type=PKCS12
ssl.truststore.location=/etc/kafka/secrets/truststore.p12
ssl.truststore.password=$trust_password
PROPERTIES
cat > "$dir/users.env" <<ENV
DPSTREAM_PASSWORD=$dpstream_password
READER_PASSWORD=$reader_password
ENV
cat > "$dir/dpstream.properties" <<PROPERTIES
sasl.jaas.config=$(jaas dpstream "$dpstream_password")
truststore.password=$trust_password
PROPERTIES
cat > "$dir/reader.properties" <<PROPERTIES
security.protocol=SASL_SSL
sasl.mechanism=SCRAM-SHA-512
sasl.jaas.config=$(jaas reader "$reader_password")
ssl.truststore.type=PKCS12
ssl.truststore.location=deploy/security/generated/truststore.p12
ssl.truststore.password=$trust_password
PROPERTIES

files=(truststore.p12 kafka.p12 admin.p12 store-password truststore-password admin.properties users.env
  dpstream.properties reader.properties)
for file in "${files[@]}"; do
  chmod 0640 "$dir/$file"
  if [[ -n "$owner" ]]; then
    chown "$owner" "$dir/$file"
  fi
done
# Public, or meant for whoever reads the releases from the host.
chmod 0644 "$dir/truststore.p12" "$dir/reader.properties"
echo "certificates, stores and passwords written to $dir"
