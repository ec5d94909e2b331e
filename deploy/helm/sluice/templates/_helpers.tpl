{{- define "sluice.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}{{ .Release.Name | trunc 50 | trimSuffix "-" }}{{- else -}}{{ printf "%s-%s" .Release.Name .Chart.Name | trunc 50 | trimSuffix "-" }}{{- end -}}
{{- end -}}

{{- define "sluice.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "sluice.selector" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "sluice.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{- define "sluice.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}{{ .Values.serviceAccount.name | default (include "sluice.fullname" .) }}{{- else -}}{{ .Values.serviceAccount.name | default "default" }}{{- end -}}
{{- end -}}

{{/* Environment every distribution launcher reads: where its conf and state are, Kafka and store secrets. */}}
{{- define "sluice.env" -}}
- name: SLUICE_CONF_DIR
  value: /etc/sluice
- name: SLUICE_DATA_DIR
  value: /var/lib/sluice
{{- if .Values.kafka.clientPropertiesSecret }}
- name: SLUICE_KAFKA_CLIENT_PROPERTIES
  value: /etc/sluice-kafka/client.properties
{{- end }}
{{- if .Values.store.passwordSecret }}
- name: SLUICE_STORE_PASSWORD_FILE
  value: /etc/sluice-store/password
{{- end }}
{{- end -}}

{{- define "sluice.secretMounts" -}}
{{- if .Values.kafka.clientPropertiesSecret }}
- name: kafka-client
  mountPath: /etc/sluice-kafka
  readOnly: true
{{- end }}
{{- if .Values.store.passwordSecret }}
- name: store-password
  mountPath: /etc/sluice-store
  readOnly: true
{{- end }}
{{- end -}}

{{- define "sluice.secretVolumes" -}}
{{- if .Values.kafka.clientPropertiesSecret }}
- name: kafka-client
  secret:
    secretName: {{ .Values.kafka.clientPropertiesSecret }}
    items: [{key: client.properties, path: client.properties}]
{{- end }}
{{- if .Values.store.passwordSecret }}
- name: store-password
  secret:
    secretName: {{ .Values.store.passwordSecret }}
    items: [{key: password, path: password}]
{{- end }}
{{- end -}}

{{- define "sluice.podSecurity" -}}
securityContext:
  runAsNonRoot: true
  runAsUser: 10001
  fsGroup: 10001
{{- end -}}

{{- define "sluice.containerSecurity" -}}
securityContext:
  allowPrivilegeEscalation: false
  readOnlyRootFilesystem: true
  capabilities: {drop: [ALL]}
{{- end -}}
